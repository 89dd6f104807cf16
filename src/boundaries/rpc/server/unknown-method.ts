/**
 * The answer to a call of a method this server does not serve. connect-node answers any unknown
 * path with a bare HTTP 404, which gRPC clients read as a broken stream (grpcurl: "server closed
 * the stream without sending trailers"). A gRPC or gRPC-Web caller gets UNIMPLEMENTED instead, as
 * a trailers-only response: over HTTP/2 one HEADERS frame that ends the stream. (Writing the head
 * and then ending the response would add an empty DATA frame, after which grpc-js reads the
 * status as plain headers and reports "Call ended without gRPC status".) Other callers get 404.
 */
import type { ConnectNodeAdapterOptions } from '@connectrpc/connect-node';
import { grpcStatusCodes } from '../status-codes.js';
import { encodeGrpcMessage } from './grpc-status.js';

type NodeHandler = NonNullable<ConnectNodeAdapterOptions['fallback']>;

export const answerUnknownMethod: NodeHandler = (request, response) => {
  const contentType = request.headers['content-type'] ?? '';
  const path = (request.url ?? '').split('?', 1)[0] ?? '';
  if (!/^application\/grpc/i.test(contentType)) {
    response.writeHead(404);
    response.end();
    return;
  }
  const headers = {
    'content-type': contentType,
    'grpc-status': String(grpcStatusCodes.UNIMPLEMENTED),
    'grpc-message': encodeGrpcMessage(`unknown method ${path}`),
  };
  if ('stream' in response && response.stream !== undefined) {
    response.stream.respond({ ':status': 200, ...headers }, { endStream: true });
    return;
  }
  response.writeHead(200, headers);
  response.end();
};
