/**
 * How the .proto reader refuses a text: one WirekitError, WK_SCHEMA_INVALID with format
 * `protobuf`, whose message starts with the line and column (as protoc's do) and whose `offset` is
 * the UTF-16 offset into the text.
 */
import { WirekitError } from '../../errors/index.js';
import type { ProtoPosition } from './ast.js';

export function protoError(message: string, at: ProtoPosition | undefined): never {
  const where = at === undefined ? '' : `line ${at.line}, column ${at.column}: `;
  throw new WirekitError('WK_SCHEMA_INVALID', `.proto ${where}${message}.`, {
    format: 'protobuf',
    ...(at === undefined ? {} : { offset: at.offset }),
  });
}
