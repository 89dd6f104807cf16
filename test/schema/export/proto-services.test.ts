/**
 * toProto of services: the text of the service blocks, and the files it refuses (a service of
 * another package than its messages, a service named like a type, two services of one name, a list
 * holding a value that is not a named type). protoc's reading is in proto-services-protoc.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { t } from '../../../src/index.js';
import { toProto } from '../../../src/schema/export/proto.js';
import { codeOf } from '../../support/code-of.js';

const Msg = t.object('Msg', { text: t.string() }, { namespace: 'chat.v1' });

describe('toProto of services', () => {
  test('prints the service block after the messages, each message once', () => {
    const Chat = t.service(
      'chat.v1.Chat',
      {
        Send: t.unary(Msg, Msg, { doc: 'Sends one.' }),
        Stream: t.bidiStream(Msg, Msg, { idempotency: 'NO_SIDE_EFFECTS', deprecated: true }),
      },
      { doc: 'Talk.' },
    );
    const proto = toProto(Chat);
    expect(proto.match(/message Msg \{/g)).toHaveLength(1);
    expect(proto).not.toMatch(/WirekitFileTypes_/);
    expect(proto.slice(proto.indexOf('// Talk.'))).toBe(
      [
        '// Talk.',
        'service Chat {',
        '  // Sends one.',
        '  rpc Send(Msg) returns (Msg);',
        '  rpc Stream(stream Msg) returns (stream Msg) {',
        '    option idempotency_level = NO_SIDE_EFFECTS;',
        '    option deprecated = true;',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  test('a single schema prints as before, with no service', () => {
    expect(toProto(Msg)).toBe(toProto([Msg]));
    expect(toProto(Msg)).not.toMatch(/service/);
  });

  test('refusals', () => {
    const send = { Send: t.unary(Msg, Msg) };
    // The service's full name is its identity on the wire: its messages' package cannot replace it.
    expect(codeOf(() => toProto(t.service('other.v1.Chat', send)))).toBe('WK_EXPORT_UNSUPPORTED');
    expect(() => toProto(t.service('Chat', send))).toThrow(
      /service Chat is in no package, but the file's types are in package chat\.v1/,
    );
    expect(codeOf(() => toProto(t.service('chat.v1.Msg', send)))).toBe('WK_EXPORT_UNSUPPORTED');
    expect(codeOf(() => toProto([t.service('chat.v1.Chat', send), t.service('chat.v1.Chat', send)]))).toBe(
      'WK_EXPORT_UNSUPPORTED',
    );
    expect(codeOf(() => toProto([t.service('chat.v1.Chat', send), t.string()]))).toBe('WK_SCHEMA_INVALID');
    expect(codeOf(() => toProto([]))).toBe('WK_SCHEMA_INVALID');
    // Two different types of one full name, met through two methods.
    const Twin = t.object('Msg', { other: t.int32() }, { namespace: 'chat.v1' });
    expect(codeOf(() => toProto(t.service('chat.v1.Chat', { A: t.unary(Msg, Twin) })))).toBe(
      'WK_SCHEMA_NAME_CONFLICT',
    );
  });
});
