/**
 * Schema references through the registry server, as Confluent's API has them: a registration's
 * `references` name other subjects' versions, whose schemas the new one uses (a Protobuf import,
 * Avro named types). They are stored and given back on reads, used when the schema is parsed and
 * when its compatibility is checked, refused (42201) when they name no version, and a version that
 * a live version refers to cannot be deleted (42206).
 */
import { describe, expect, test } from 'vitest';
import { registryPerTest, subjectPath } from './http.js';

const api = registryPerTest();

function errorOf(reply: { status: number; body: unknown }): { status: number; errorCode: unknown } {
  return { status: reply.status, errorCode: (reply.body as { error_code?: unknown }).error_code };
}

const money = `syntax = "proto3";
package shop.common;
message Money { string currency = 1; int64 units = 2; }
`;
const order = (field: string) => `syntax = "proto3";
package shop.v1;
import "google/protobuf/timestamp.proto";
import "shop/money.proto";
message Order {
  string id = 1;
  ${field}
  google.protobuf.Timestamp placed = 3;
}
`;
const moneyRef = [{ name: 'shop/money.proto', subject: 'shop/money.proto', version: 1 }];

describe('Protobuf imports', () => {
  test('an import of another subject is resolved through its reference, stored and given back', async () => {
    expect(
      (
        await api('POST', subjectPath('shop/money.proto', '/versions'), {
          schemaType: 'PROTOBUF',
          schema: money,
        })
      ).body,
    ).toEqual({ id: 1 });
    const registered = await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: order('shop.common.Money total = 2;'),
      references: moneyRef,
    });
    expect(registered.body).toEqual({ id: 2 });
    expect((await api('GET', '/schemas/ids/2')).body).toMatchObject({
      schemaType: 'PROTOBUF',
      references: moneyRef,
    });
    expect((await api('GET', subjectPath('orders-value', '/versions/1'))).body).toMatchObject({
      id: 2,
      references: moneyRef,
    });
    expect((await api('GET', subjectPath('shop/money.proto', '/versions/1/referencedby'))).body).toEqual([2]);
    // A lookup of the same text and references finds it.
    const found = await api('POST', subjectPath('orders-value', ''), {
      schemaType: 'PROTOBUF',
      schema: order('shop.common.Money total = 2;'),
      references: moneyRef,
    });
    expect(found.body).toMatchObject({ id: 2, version: 1 });
  });

  test('without the reference, the import is refused (42201), naming it', async () => {
    const reply = await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: order('shop.common.Money total = 2;'),
    });
    expect(errorOf(reply)).toEqual({ status: 422, errorCode: 42201 });
    expect((reply.body as { message: string }).message).toContain('shop/money.proto');
  });

  test('a reference to a version that does not exist is refused (42201)', async () => {
    const reply = await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: order('shop.common.Money total = 2;'),
      references: moneyRef,
    });
    expect(errorOf(reply)).toEqual({ status: 422, errorCode: 42201 });
    expect((reply.body as { message: string }).message).toMatch(
      /shop\/money\.proto version 1, which does not exist/,
    );
  });

  test('a type the referenced file does not define is refused (42201)', async () => {
    await api('POST', subjectPath('shop/money.proto', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: money,
    });
    const reply = await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: order('shop.common.Price total = 2;'),
      references: moneyRef,
    });
    expect(errorOf(reply)).toEqual({ status: 422, errorCode: 42201 });
  });

  test('compatibility reads the referenced types: changing a field from one imported message to another breaks it', async () => {
    const money2 = `${money}message Points { int64 amount = 1; }\n`;
    await api('POST', subjectPath('shop/money.proto', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: money2,
    });
    const register = (field: string) =>
      api('POST', subjectPath('orders-value', '/versions'), {
        schemaType: 'PROTOBUF',
        schema: order(field),
        references: moneyRef,
      });
    expect((await register('shop.common.Money total = 2;')).status).toBe(200);
    const changed = await register('shop.common.Points total = 2;');
    expect(changed.status).toBe(409);
    const verbose = await api('POST', '/compatibility/subjects/orders-value/versions/latest?verbose=true', {
      schemaType: 'PROTOBUF',
      schema: order('shop.common.Points total = 2;'),
      references: moneyRef,
    });
    expect(verbose.body).toMatchObject({ is_compatible: false });
  });

  test('compatibility looks inside an imported message: a change of encoding in the referenced Money breaks it, at a path naming Money', async () => {
    const register = (subject: string, body: object) =>
      api('POST', subjectPath(subject, '/versions'), { schemaType: 'PROTOBUF', ...body });
    expect((await register('shop/money.proto', { schema: money })).status).toBe(200);
    // Version 2 of the referenced file: units int64 → sint64 (zigzag, read differently).
    await api('PUT', `/config/${encodeURIComponent('shop/money.proto')}`, { compatibility: 'NONE' });
    const moneyV2 = money.replace('int64 units', 'sint64 units');
    expect((await register('shop/money.proto', { schema: moneyV2 })).status).toBe(200);
    const field = 'shop.common.Money total = 2;';
    expect((await register('orders-value', { schema: order(field), references: moneyRef })).status).toBe(200);
    const toV2 = [{ ...moneyRef[0], version: 2 }];
    const changed = await register('orders-value', { schema: order(field), references: toV2 });
    expect(changed.status).toBe(409);
    const verbose = await api('POST', '/compatibility/subjects/orders-value/versions/latest?verbose=true', {
      schemaType: 'PROTOBUF',
      schema: order(field),
      references: toV2,
    });
    const { is_compatible, messages } = verbose.body as { is_compatible: boolean; messages: string[] };
    expect(is_compatible).toBe(false);
    expect(messages.join('\n')).toMatch(/FIELD_SCALAR_KIND_CHANGED.*#\/shop\.common\.Money\/2/);
    // A change the rules allow inside the imported message (a field added) still registers.
    const moneyV3 = money.replace('int64 units = 2;', 'int64 units = 2; string note = 3;');
    await register('shop/money.proto', { schema: moneyV3 });
    const toV3 = [{ ...moneyRef[0], version: 3 }];
    expect((await register('orders-value', { schema: order(field), references: toV3 })).status).toBe(200);
  });

  test("compatibility compares an imported enum too: a value taking a number the referenced file's older version reserves breaks it", async () => {
    const register = (subject: string, body: object) =>
      api('POST', subjectPath(subject, '/versions'), { schemaType: 'PROTOBUF', ...body });
    const currency = (values: string) =>
      `syntax = "proto3";\npackage shop.common;\nenum Currency { CURRENCY_UNSPECIFIED = 0; EUR = 1; ${values} }\n`;
    const currencyRef = [{ name: 'shop/money.proto', subject: 'shop/money.proto', version: 1 }];
    expect((await register('shop/money.proto', { schema: currency('reserved 3;') })).status).toBe(200);
    await api('PUT', `/config/${encodeURIComponent('shop/money.proto')}`, { compatibility: 'NONE' });
    expect((await register('shop/money.proto', { schema: currency('GBP = 3;') })).status).toBe(200);
    const field = 'shop.common.Currency total = 2;';
    expect((await register('orders-value', { schema: order(field), references: currencyRef })).status).toBe(
      200,
    );
    const toV2 = [{ ...currencyRef[0], version: 2 }];
    const verbose = await api('POST', '/compatibility/subjects/orders-value/versions/latest?verbose=true', {
      schemaType: 'PROTOBUF',
      schema: order(field),
      references: toV2,
    });
    const { is_compatible, messages } = verbose.body as { is_compatible: boolean; messages: string[] };
    expect(is_compatible).toBe(false);
    expect(messages.join('\n')).toMatch(/RESERVED_NUMBER_REUSED.*#\/shop\.common\.Currency\/3/);
    expect((await register('orders-value', { schema: order(field), references: toV2 })).status).toBe(409);
  });

  test('a referenced version cannot be deleted, softly or for good, while a live version refers to it (42206)', async () => {
    await api('POST', subjectPath('shop/money.proto', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: money,
    });
    await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: order('shop.common.Money total = 2;'),
      references: moneyRef,
    });
    expect(errorOf(await api('DELETE', subjectPath('shop/money.proto', '/versions/1')))).toEqual({
      status: 422,
      errorCode: 42206,
    });
    expect(errorOf(await api('DELETE', subjectPath('shop/money.proto', '')))).toEqual({
      status: 422,
      errorCode: 42206,
    });
    // Once the referrer is gone, the referenced version may go.
    expect((await api('DELETE', subjectPath('orders-value', '/versions/1'))).status).toBe(200);
    expect((await api('DELETE', subjectPath('shop/money.proto', '/versions/1'))).status).toBe(200);
  });

  test('references reach transitively: a file importing a file that imports a third', async () => {
    const currency = 'syntax = "proto3";\npackage shop.common;\nmessage Currency { string code = 1; }\n';
    const price = `syntax = "proto3";\npackage shop.common;\nimport "shop/currency.proto";\nmessage Price { Currency currency = 1; int64 units = 2; }\n`;
    await api('POST', subjectPath('shop/currency.proto', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: currency,
    });
    const priceReply = await api('POST', subjectPath('shop/price.proto', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: price,
      references: [{ name: 'shop/currency.proto', subject: 'shop/currency.proto', version: 1 }],
    });
    expect(priceReply.status).toBe(200);
    const reply = await api('POST', subjectPath('orders-value', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: order('shop.common.Price total = 2;').replace('shop/money.proto', 'shop/price.proto'),
      references: [{ name: 'shop/price.proto', subject: 'shop/price.proto', version: 1 }],
    });
    expect(reply.status).toBe(200);
  });
});

describe('Avro named types from another subject', () => {
  const address = JSON.stringify({
    type: 'record',
    name: 'Address',
    namespace: 'shop',
    fields: [{ name: 'city', type: 'string' }],
  });
  const customer = (fields: readonly object[]) =>
    JSON.stringify({
      type: 'record',
      name: 'Customer',
      namespace: 'shop',
      fields: [{ name: 'name', type: 'string' }, ...fields],
    });
  const addressRef = [{ name: 'shop.Address', subject: 'address-value', version: 1 }];

  test('a record naming a type its reference defines is registered, and checked with it', async () => {
    await api('POST', subjectPath('address-value', '/versions'), { schema: address });
    const first = await api('POST', subjectPath('customer-value', '/versions'), {
      schema: customer([{ name: 'home', type: 'shop.Address' }]),
      references: addressRef,
    });
    expect(first.body).toEqual({ id: 2 });
    expect((await api('GET', '/schemas/ids/2')).body).toMatchObject({ references: addressRef });
    // Adding a field with a default is BACKWARD compatible; one without a default is not.
    const compatible = await api('POST', subjectPath('customer-value', '/versions'), {
      schema: customer([
        { name: 'home', type: 'shop.Address' },
        { name: 'work', type: ['null', 'shop.Address'], default: null },
      ]),
      references: addressRef,
    });
    expect(compatible.body).toEqual({ id: 3 });
    const incompatible = await api('POST', subjectPath('customer-value', '/versions'), {
      schema: customer([
        { name: 'home', type: 'shop.Address' },
        { name: 'billing', type: 'shop.Address' },
      ]),
      references: addressRef,
    });
    expect(incompatible.status).toBe(409);
  });

  test('without the reference, the name is unknown (42201)', async () => {
    const reply = await api('POST', subjectPath('customer-value', '/versions'), {
      schema: customer([{ name: 'home', type: 'shop.Address' }]),
    });
    expect(errorOf(reply)).toEqual({ status: 422, errorCode: 42201 });
  });

  test('a reference of another schema type is refused (42201)', async () => {
    await api('POST', subjectPath('shop/money.proto', '/versions'), {
      schemaType: 'PROTOBUF',
      schema: money,
    });
    const reply = await api('POST', subjectPath('customer-value', '/versions'), {
      schema: customer([]),
      references: moneyRef,
    });
    expect(errorOf(reply)).toEqual({ status: 422, errorCode: 42201 });
  });
});
