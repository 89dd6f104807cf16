/**
 * Matching a request's path against the templates of a gateway's bindings, by HttpRule's rules
 * rather than Fastify's router: a variable may span several segments (`{name=shelves/*}`), `**`
 * takes the rest, and a custom verb (`:cancel`) is glued to the last segment, none of which
 * find-my-way's `:param` and `*` express. Fastify routes a request to a group of bindings by their
 * common literal prefix (routeUrlOf); the group then tries its templates, most literal first.
 *
 * Decoding follows HttpRule: a single-segment variable is percent-decoded whole; a multi-segment one
 * segment by segment, with `%2F` left encoded so the value's own slashes stay told apart from the
 * path's.
 */
import { WirekitError } from '../../../errors/index.js';
import type { PathTemplate } from '../../../schema/http-rule.js';

/** A template's variables matched in a path: each field path (dotted) with its decoded text. */
export type PathValues = readonly (readonly [field: readonly string[], value: string])[];

function badPath(message: string): WirekitError {
  return new WirekitError('WK_DECODE_MALFORMED', `the path ${message}`);
}

function decodeSegment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw badPath(`segment ${JSON.stringify(text)} is not valid percent-encoding.`);
  }
}

/** A multi-segment value: each segment decoded, `%2F` kept as it was sent. */
function decodeKeepingSlashes(text: string): string {
  return text
    .split(/(%2F)/i)
    .map((part, index) => (index % 2 === 1 ? part : decodeSegment(part)))
    .join('');
}

/**
 * The values of `template`'s variables in `path` (the request's path after the gateway's prefix, as
 * sent: not decoded, no query), or undefined when it does not match.
 */
export function matchPath(template: PathTemplate, path: string): PathValues | undefined {
  if (!path.startsWith('/')) return undefined;
  let rest = path.slice(1);
  if (template.verb !== undefined) {
    const suffix = `:${template.verb}`;
    if (!rest.endsWith(suffix)) return undefined;
    rest = rest.slice(0, -suffix.length);
  }
  const parts = rest.split('/');
  const { segments } = template;
  // Where each template segment starts in `parts`; `**` (last only) spans what is left.
  const starts: number[] = [];
  let at = 0;
  for (const segment of segments) {
    starts.push(at);
    if (segment.kind === 'rest') {
      at = parts.length;
      break;
    }
    const part = parts[at];
    if (part === undefined || part === '') return undefined;
    if (segment.kind === 'literal' && part !== segment.value && decodeSegment(part) !== segment.value) {
      return undefined;
    }
    at++;
  }
  starts.push(at);
  if (at !== parts.length) return undefined;
  return template.variables.map((variable) => {
    const from = starts[variable.start] as number;
    const to = starts[variable.end] as number;
    const spans = parts.slice(from, to);
    const multi = variable.end - variable.start > 1 || segments[variable.start]?.kind === 'rest';
    const value = multi ? spans.map(decodeKeepingSlashes).join('/') : decodeSegment(spans[0] ?? '');
    return [variable.field, value] as const;
  });
}

/**
 * The Fastify URL a template is routed under: its literal segments up to the first that is not
 * (with `:` written `::`, find-my-way's literal colon), then a wildcard; a template of literals only
 * (its verb included) is routed exactly.
 */
export function routeUrlOf(template: PathTemplate): string {
  const literals: string[] = [];
  for (const segment of template.segments) {
    if (segment.kind !== 'literal') break;
    literals.push(segment.value.replaceAll(':', '::'));
  }
  const all = literals.length === template.segments.length;
  if (all) return `/${literals.join('/')}${template.verb === undefined ? '' : `::${template.verb}`}`;
  return `/${[...literals, '*'].join('/')}`;
}

/**
 * Orders templates for matching in one group: more literal segments first, then fewer `**`, then
 * as declared (sort is stable). `/v1/orders/special` is tried before `/v1/orders/{id}`.
 */
export function bySpecificity(a: PathTemplate, b: PathTemplate): number {
  const literals = (t: PathTemplate) => t.segments.filter((segment) => segment.kind === 'literal').length;
  const rests = (t: PathTemplate) => t.segments.filter((segment) => segment.kind === 'rest').length;
  const verbs = (t: PathTemplate) => (t.verb === undefined ? 0 : 1);
  return literals(b) - literals(a) || verbs(b) - verbs(a) || rests(a) - rests(b);
}
