/**
 * Laying out generated TypeScript expressions the way Biome formats them (line width 110, two
 * spaces, single quotes, trailing commas), so that a generated module checked into a repository
 * that runs Biome is left as it is, and a schema change shows in review as the lines it changes.
 *
 * An expression is a small tree of calls, object literals and arrays. Each is printed on one line
 * when it fits; otherwise a call whose last argument is an object or array literal keeps its other
 * arguments on the line and opens that literal ("hugging", as Biome and Prettier do), and any other
 * call puts each argument on a line of its own. An object literal marked `expanded` is always
 * printed one entry a line: Biome keeps an object expanded when its source has a line break after
 * the brace, which is how a type's fields read best.
 */

export type Expr = string | CallExpr | ObjectExpr | ArrayExpr;

export interface CallExpr {
  readonly call: string;
  readonly args: readonly Expr[];
}

export interface ObjectExpr {
  readonly entries: readonly (readonly [key: string, value: Expr])[];
  readonly expanded?: boolean;
}

export interface ArrayExpr {
  readonly items: readonly Expr[];
}

const lineWidth = 110;

export function call(callee: string, ...args: Expr[]): CallExpr {
  return { call: callee, args };
}

/** A string literal as Biome writes it: single quotes, unless the text holds more of them than double quotes. */
export function quote(text: string): string {
  const singles = text.split("'").length - 1;
  const doubles = text.split('"').length - 1;
  const mark = singles > doubles ? '"' : "'";
  let out = mark;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (char === mark || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029)
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return out + mark;
}

/** An object key as written: bare when it is an identifier, else quoted. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : quote(name);
}

/** The expression on one line. */
function flat(expr: Expr): string {
  if (typeof expr === 'string') return expr;
  if ('call' in expr) return `${expr.call}(${expr.args.map(flat).join(', ')})`;
  if ('items' in expr) return `[${expr.items.map(flat).join(', ')}]`;
  if (expr.entries.length === 0) return '{}';
  return `{ ${expr.entries.map(([key, value]) => `${key}: ${flat(value)}`).join(', ')} }`;
}

/** Whether the expression must take more than one line whatever the width. */
function mustBreak(expr: Expr): boolean {
  if (typeof expr === 'string') return false;
  if ('call' in expr) return expr.args.some(mustBreak);
  if ('items' in expr) return expr.items.some(mustBreak);
  return (expr.expanded === true && expr.entries.length > 0) || expr.entries.some(([, v]) => mustBreak(v));
}

/**
 * The expression laid out from `column` on a line indented by `indent` spaces, with `tail`
 * characters (a comma, a semicolon) still to follow it on its last line.
 */
export function layout(expr: Expr, indent: number, column: number, tail: number): string {
  const oneLine = flat(expr);
  if (!mustBreak(expr) && column + oneLine.length + tail <= lineWidth) return oneLine;
  if (typeof expr === 'string') return expr;
  const inner = ' '.repeat(indent + 2);
  const close = ' '.repeat(indent);
  if ('items' in expr) {
    const lines = expr.items.map((item) => `${inner}${layout(item, indent + 2, indent + 2, 1)},`);
    return `[\n${lines.join('\n')}\n${close}]`;
  }
  if ('entries' in expr) {
    const lines = expr.entries.map(([key, value]) => {
      const start = `${inner}${key}: `;
      return `${start}${layout(value, indent + 2, start.length, 1)},`;
    });
    return `{\n${lines.join('\n')}\n${close}}`;
  }
  const last = expr.args.at(-1);
  const before = expr.args.slice(0, -1);
  if (last !== undefined && typeof last !== 'string' && !('call' in last) && !before.some(mustBreak)) {
    const head = `${expr.call}(${before.map((arg) => `${flat(arg)}, `).join('')}`;
    if (column + head.length <= lineWidth && !headTooLong(head, column)) {
      return `${head}${layoutBroken(last, indent)})`;
    }
  }
  const lines = expr.args.map((arg) => `${inner}${layout(arg, indent + 2, indent + 2, 1)},`);
  return `${expr.call}(\n${lines.join('\n')}\n${close})`;
}

/** A hugging head whose first line would not fit even with the literal opened. */
function headTooLong(head: string, column: number): boolean {
  return column + head.length + 1 > lineWidth;
}

/** An object or array literal opened over several lines, whatever its width. */
function layoutBroken(expr: ObjectExpr | ArrayExpr, indent: number): string {
  if ('items' in expr ? expr.items.length === 0 : expr.entries.length === 0) return flat(expr);
  const forced: Expr = 'items' in expr ? expr : { entries: expr.entries, expanded: true };
  if ('items' in forced) {
    const inner = ' '.repeat(indent + 2);
    const lines = forced.items.map((item) => `${inner}${layout(item, indent + 2, indent + 2, 1)},`);
    return `[\n${lines.join('\n')}\n${' '.repeat(indent)}]`;
  }
  return layout(forced, indent, 0, 0);
}
