/**
 * The gateway's call on a wirekit RPC transport, for `rpcGateway(service, gatewayCallOf(service,
 * transport))`: the methods of `createRpcClient`, by name, whose Protocol Buffers replies stay in
 * their bytes (encoded-reply.ts). The gateway writes those bytes as ProtoJSON directly
 * (protojson-transcode.ts) rather than decode a value only to write it again: on a list of records
 * that is most of the hop's CPU (docs/benchmarks.md, *The edge gateway's hop*).
 */
import type { ServiceSchema } from '../../../schema/index.js';
import { clientWithReplies, type RpcCallOptions, type RpcClientOptions } from '../client/client.js';
import type { RpcTransport } from '../client/transport.js';
import { EncodedReplySerializers } from '../encoded-reply.js';
import type { GatewayCall } from './gateway.js';

export function gatewayCallOf<S extends ServiceSchema>(
  service: S,
  transport: RpcTransport,
  options: RpcClientOptions = {},
): GatewayCall<S> {
  const client = clientWithReplies(
    service,
    transport,
    options,
    (schema) => new EncodedReplySerializers(schema, options.codecOptions),
  );
  return (method, request, callOptions) =>
    (client[method] as (request: unknown, options: RpcCallOptions) => Promise<unknown>)(request, callOptions);
}
