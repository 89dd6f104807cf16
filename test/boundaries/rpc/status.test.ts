import { readFileSync } from 'node:fs';
import protobuf from 'protobufjs';
import { describe, expect, test } from 'vitest';
import {
  BadRequest,
  connectCodeOf,
  connectHttpStatusOf,
  ErrorInfo,
  type GrpcStatusName,
  grpcStatusCodes,
  grpcStatusOfErrorCode,
  rpcStatusOf,
} from '../../../src/boundaries/rpc/index.js';
import { createProtobufCodec } from '../../../src/codecs/protobuf/index.js';
import { errorCodes, WirekitError } from '../../../src/errors/index.js';
import { assert, t } from '../../../src/index.js';

const Line = t.object('Line', { sku: t.string({ minLength: 1 }), quantity: t.uint32({ min: 1 }) });
const Order = t.object('Order', { id: t.int64(), lines: t.array(Line) });

/** What a handler throws, caught so the test can look at it. */
function thrownBy(body: () => unknown): unknown {
  try {
    body();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('gRPC status codes', () => {
  test('the seventeen codes of google.rpc.Code, numbered 0 to 16', () => {
    expect(Object.entries(grpcStatusCodes)).toEqual([
      ['OK', 0],
      ['CANCELLED', 1],
      ['UNKNOWN', 2],
      ['INVALID_ARGUMENT', 3],
      ['DEADLINE_EXCEEDED', 4],
      ['NOT_FOUND', 5],
      ['ALREADY_EXISTS', 6],
      ['PERMISSION_DENIED', 7],
      ['RESOURCE_EXHAUSTED', 8],
      ['FAILED_PRECONDITION', 9],
      ['ABORTED', 10],
      ['OUT_OF_RANGE', 11],
      ['UNIMPLEMENTED', 12],
      ['INTERNAL', 13],
      ['UNAVAILABLE', 14],
      ['DATA_LOSS', 15],
      ['UNAUTHENTICATED', 16],
    ]);
  });

  test("Connect's code strings and HTTP statuses, as its 2024 specification gives them", () => {
    const table = (Object.keys(grpcStatusCodes) as GrpcStatusName[])
      .filter((name): name is Exclude<GrpcStatusName, 'OK'> => name !== 'OK')
      .map((name) => `${connectCodeOf(name)} ${connectHttpStatusOf(name)}`);
    expect(table).toEqual([
      'canceled 499',
      'unknown 500',
      'invalid_argument 400',
      'deadline_exceeded 504',
      'not_found 404',
      'already_exists 409',
      'permission_denied 403',
      'resource_exhausted 429',
      'failed_precondition 400',
      'aborted 409',
      'out_of_range 400',
      'unimplemented 501',
      'internal 500',
      'unavailable 503',
      'data_loss 500',
      'unauthenticated 401',
    ]);
    expect(connectHttpStatusOf('OK')).toBe(200);
  });
});

describe('the wirekit error code → gRPC status table', () => {
  test('maps every registered wirekit code, and only those', () => {
    // A new code in src/errors/codes.ts without a row here fails this test (and the Record's type).
    expect(Object.keys(grpcStatusOfErrorCode).sort()).toEqual(Object.keys(errorCodes).sort());
    for (const status of Object.values(grpcStatusOfErrorCode)) expect(grpcStatusCodes).toHaveProperty(status);
  });

  test('requests at fault are INVALID_ARGUMENT, limits RESOURCE_EXHAUSTED, unknown formats UNIMPLEMENTED', () => {
    const byStatus = (status: GrpcStatusName) =>
      Object.entries(grpcStatusOfErrorCode)
        .filter(([, to]) => to === status)
        .map(([code]) => code);
    expect(byStatus('INVALID_ARGUMENT')).toEqual(expect.arrayContaining(['WK_VALIDATION_FAILED']));
    for (const code of Object.keys(errorCodes)) {
      if (code.startsWith('WK_DECODE_'))
        expect(grpcStatusOfErrorCode[code as never], code).toBe('INVALID_ARGUMENT');
      if (code.startsWith('WK_LIMIT_'))
        expect(grpcStatusOfErrorCode[code as never], code).toBe('RESOURCE_EXHAUSTED');
    }
    expect(grpcStatusOfErrorCode.WK_UNKNOWN_FORMAT).toBe('UNIMPLEMENTED');
  });

  test('docs/rpc.md shows the same table, row for row', () => {
    const docs = readFileSync(new URL('../../../docs/rpc.md', import.meta.url), 'utf8');
    const rows = [...docs.matchAll(/^\| `(WK_[A-Z0-9_]+)` \| (\w+) \(\d+\)/gm)].map(([, code, status]) => [
      code,
      status,
    ]);
    expect(Object.fromEntries(rows)).toEqual(grpcStatusOfErrorCode);
    expect(rows).toHaveLength(Object.keys(errorCodes).length);
  });
});

describe('rpcStatusOf', () => {
  test('a validation error is INVALID_ARGUMENT with its code, path and every issue as details', () => {
    const thrown = thrownBy(() =>
      assert(Order, {
        id: 1n,
        lines: [
          { sku: 'a', quantity: 2 },
          { sku: '', quantity: 0 },
        ],
      }),
    );
    const status = rpcStatusOf(thrown);
    expect([status.status, status.code]).toEqual(['INVALID_ARGUMENT', 3]);
    expect(status.message).toBe((thrown as Error).message);
    expect(status.details).toEqual([
      {
        type: 'google.rpc.ErrorInfo',
        value: { reason: 'WK_VALIDATION_FAILED', domain: 'wirekit', metadata: { path: 'lines[1].sku' } },
      },
      {
        type: 'google.rpc.BadRequest',
        value: {
          fieldViolations: [
            {
              field: 'lines[1].sku',
              description: expect.stringMatching(/^lines\[1\]\.sku: /),
              reason: 'TOO_SHORT',
            },
            {
              field: 'lines[1].quantity',
              description: expect.stringMatching(/^lines\[1\]\.quantity: /),
              reason: 'OUT_OF_RANGE',
            },
          ],
        },
      },
    ]);
  });

  test('a decoder past its input limit is RESOURCE_EXHAUSTED', () => {
    const encoded = createProtobufCodec({ schema: Order }).encode({
      id: 7n,
      lines: [{ sku: 'abc', quantity: 1 }],
    });
    const small = createProtobufCodec({ schema: Order, limits: { maxInputBytes: 4 } });
    const status = rpcStatusOf(thrownBy(() => small.decode(encoded)));
    expect([status.status, status.code]).toEqual(['RESOURCE_EXHAUSTED', 8]);
    expect(status.details[0]).toMatchObject({
      type: 'google.rpc.ErrorInfo',
      value: { reason: 'WK_LIMIT_INPUT' },
    });
  });

  test('malformed bytes are INVALID_ARGUMENT, with the byte offset where the decoder stopped', () => {
    const status = rpcStatusOf(
      thrownBy(() => createProtobufCodec({ schema: Order }).decode(Uint8Array.of(0x08))),
    );
    expect(status.status).toBe('INVALID_ARGUMENT');
    expect(status.details).toEqual([
      {
        type: 'google.rpc.ErrorInfo',
        value: { reason: 'WK_DECODE_TRUNCATED', domain: 'wirekit', metadata: { offset: '1' } },
      },
    ]);
  });

  test("a WirekitError's path and format travel in ErrorInfo's metadata", () => {
    const thrown = new WirekitError('WK_DECODE_SCHEMA_MISMATCH', 'lines[0].quantity: expected an int', {
      path: ['lines', 0, 'quantity'],
      offset: 12,
      format: 'avro',
    });
    expect(rpcStatusOf(thrown).details[0]?.value).toEqual({
      reason: 'WK_DECODE_SCHEMA_MISMATCH',
      domain: 'wirekit',
      metadata: { path: 'lines[0].quantity', format: 'avro', offset: '12' },
    });
  });

  test('any other error is INTERNAL, and its message stays on the server unless exposed', () => {
    const secret = new Error('connect ECONNREFUSED 10.0.0.7:5432 (user billing)');
    expect(rpcStatusOf(secret)).toEqual({
      status: 'INTERNAL',
      code: 13,
      message: 'internal error',
      details: [],
    });
    expect(rpcStatusOf('a thrown string', { exposeUnexpectedErrors: true }).message).toBe('internal error');
    expect(rpcStatusOf(secret, { exposeUnexpectedErrors: true }).message).toBe(secret.message);
    // A WirekitError's message is written for callers: it is always sent.
    const mine = new WirekitError('WK_REGISTRY_NOT_FOUND', 'no subject orders-value.');
    expect(rpcStatusOf(mine)).toMatchObject({
      status: 'NOT_FOUND',
      code: 5,
      message: 'no subject orders-value.',
    });
  });
});

describe('error details on the wire', () => {
  // google/rpc/error_details.proto's two messages, as protobufjs reads them: the independent side.
  const definitions = {
    nested: {
      google: {
        nested: {
          rpc: {
            nested: {
              ErrorInfo: {
                fields: {
                  reason: { type: 'string', id: 1 },
                  domain: { type: 'string', id: 2 },
                  metadata: { keyType: 'string', type: 'string', id: 3 },
                },
              },
              BadRequest: {
                fields: { fieldViolations: { rule: 'repeated', type: 'FieldViolation', id: 1 } },
                nested: {
                  FieldViolation: {
                    fields: {
                      field: { type: 'string', id: 1 },
                      description: { type: 'string', id: 2 },
                      reason: { type: 'string', id: 3 },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
  const root = protobuf.Root.fromJSON(definitions);

  test("wirekit's schemas write the bytes of google.rpc.ErrorInfo and BadRequest", () => {
    const thrown = thrownBy(() => assert(Order, { id: 1n, lines: [{ sku: '', quantity: 1 }] }));
    for (const detail of rpcStatusOf(thrown).details) {
      const schema = detail.type === 'google.rpc.ErrorInfo' ? ErrorInfo : BadRequest;
      const bytes = createProtobufCodec({ schema }).encode(detail.value as never);
      const read = root.lookupType(detail.type).decode(bytes).toJSON();
      expect(read, detail.type).toEqual(detail.value);
    }
  });
});
