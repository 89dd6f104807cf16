/**
 * JSON outside, binary inside, from one schema: starts the internal gRPC service and the public
 * JSON gateway in front of it (one process here; each half is its own module) and prints what to
 * try. `--demo` makes a few calls, prints them and exits.
 *
 *   npm run example:gateway                # then try the curl commands it prints
 *   npm run example:gateway -- --demo
 *   npm run example:gateway -- --port 8080 --internal-port 50052
 */

import { startOrderService } from '../rpc/service.js';
import { startGateway } from './gateway.js';

/** `--port P` (the gateway's; 0 for a free one) and `--internal-port P`, else PORT / INTERNAL_PORT. */
const flag = (name: string) => {
  const at = process.argv.indexOf(name);
  return at < 0 ? undefined : process.argv[at + 1];
};
const gatewayPort = Number(flag('--port') ?? process.env.PORT ?? 3000);
const internalPort = Number(flag('--internal-port') ?? process.env.INTERNAL_PORT ?? 50051);

const internal = await startOrderService(internalPort);
const gateway = await startGateway(gatewayPort, internal.url);
console.log(`internal gRPC service (Protocol Buffers) on 127.0.0.1:${internal.port}`);
console.log(`public JSON gateway on ${gateway.url}/api`);

const api = `${gateway.url}/api`;
const tries = [
  `curl -s ${api}/v1/orders/2`,
  `curl -s '${api}/v1/orders?paid=false&limit=10'`,
  `curl -s -X POST ${api}/v1/orders -H 'content-type: application/json' -d '{"customer":"Lin","totalCents":"1999","items":["lamp"]}'`,
  `curl -s -X POST ${api}/v1/orders/2:pay`,
  `curl -s ${api}/v1/orders/99          # NOT_FOUND → 404`,
  `curl -s ${api}/v1/orders/abc         # not an int64 → 400 naming the field`,
];

if (process.argv.includes('--demo')) {
  const show = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${api}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    console.log(`${response.status} ${method} ${path}\n  ${await response.text()}`);
  };
  await show('GET', '/v1/orders/2');
  await show('GET', '/v1/orders?paid=false&limit=10');
  await show('POST', '/v1/orders', { customer: 'Lin', totalCents: '1999', items: ['lamp'] });
  await show('POST', '/v1/orders/2:pay');
  await show('POST', '/v1/orders/2:pay');
  await show('GET', '/v1/orders/99');
  await show('GET', '/v1/orders/abc');
  await gateway.stop();
  await internal.stop();
} else {
  console.log(`\nTry:\n${tries.map((line) => `  ${line}`).join('\n')}\n\nCtrl-C to stop.`);
  process.on('SIGINT', async () => {
    await gateway.stop();
    await internal.stop();
    process.exit(0);
  });
}
