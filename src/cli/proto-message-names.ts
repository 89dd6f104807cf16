/**
 * The name of the message a Confluent Protobuf frame's message indexes point at, read from the
 * registry's .proto text, so `wirekit inspect --registry` can say which message the fields belong
 * to. Index i of a path is the i-th message declared at that level ([0] the file's first top-level
 * message, [1, 0] the first message nested in the second). Only message declarations and braces
 * are followed (comments and string literals are skipped); anything it cannot follow gives no
 * name rather than a wrong one.
 */

interface MessageNode {
  readonly name: string;
  readonly children: MessageNode[];
}

/** The full name (package.Outer.Inner) at the index path, or undefined when the text does not say. */
export function protoMessageAt(proto: string, indexes: readonly number[]): string | undefined {
  const parsed = messageTree(proto);
  if (parsed === undefined) return undefined;
  let level = parsed.roots;
  const names: string[] = [];
  for (const index of indexes) {
    const node = level[index];
    if (node === undefined) return undefined;
    names.push(node.name);
    level = node.children;
  }
  if (names.length === 0) return undefined;
  return [parsed.packageName, ...names].filter((part) => part !== undefined).join('.');
}

function messageTree(proto: string): { roots: MessageNode[]; packageName: string | undefined } | undefined {
  const tokens = proto
    // Comments and string literals, whose text could look like declarations.
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, ' ')
    .match(/[A-Za-z_][A-Za-z0-9_.]*|[{};]/g);
  if (tokens === null) return undefined;
  const roots: MessageNode[] = [];
  // One frame per open brace: the message it opened, or null for any other block (enum, oneof, service).
  const stack: (MessageNode | null)[] = [];
  let packageName: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token === 'package' && stack.length === 0) packageName = tokens[i + 1];
    if (token === 'message' && /^[A-Za-z_]\w*$/.test(tokens[i + 1] ?? '') && tokens[i + 2] === '{') {
      const node: MessageNode = { name: tokens[i + 1] as string, children: [] };
      const parent = stack.at(-1);
      if (stack.length === 0) roots.push(node);
      else if (parent === null)
        return undefined; // a message inside a non-message block: not followed
      else parent?.children.push(node);
      stack.push(node);
      i += 2;
    } else if (token === '{') {
      stack.push(null);
    } else if (token === '}') {
      if (stack.pop() === undefined) return undefined;
    }
  }
  return stack.length === 0 ? { roots, packageName } : undefined;
}
