export type { CallErrorOptions } from './call-error.js';
export { createConnectHandlerFactory } from './connect-handler.js';
export { type RpcFastifyOptions, rpcPlugin } from './fastify-plugin.js';
export { createGrpcHandlerFactory } from './grpc-handler.js';
export { createGrpcWebHandlerFactory } from './grpc-web-handler.js';
export { createRpcServer, type RpcNodeServerOptions, type RpcServer } from './node-server.js';
export {
  defaultMaxConcurrentStreams,
  defaultRpcMessageBytes,
  type RpcLimits,
  type RpcServerOptions,
} from './server-options.js';
export {
  type RpcCallContext,
  type RpcProtocolFactory,
  type RpcService,
  type RpcServiceOptions,
  rpcService,
} from './service-router.js';
