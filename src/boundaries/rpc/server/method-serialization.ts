/**
 * The pieces wirekit's protocol handler factories share, in the place of what Connect's own
 * factories get from protobuf-es: the content types a server offers under each protocol (from the
 * codecs it offers), a method's serializations in each codec (wirekit's codecs, with Connect's read
 * and write limits, bad bytes answered as the caller's fault, replies unboxed), and the limits'
 * safe defaults.
 */
import type { DescMethod } from '@bufbuild/protobuf';
import type {
  Serialization,
  UniversalHandlerOptions,
  validateUniversalHandlerOptions,
} from '@connectrpc/connect/protocol';
import { WirekitBug } from '../../../errors/index.js';
import type { RpcCodecName, RpcProtocol } from '../message-formats.js';
import { replyEncodingError } from './call-error.js';
import { connectRuntime } from './connect-runtime.js';
import { type BoxedReply, unboxReply, type WirekitHandlerOptions } from './handler-options.js';

/**
 * The largest message a handler reads or writes unless told otherwise: 4 MiB each way, gRPC's own
 * default. Connect's default is 4 GiB, which lets one call claim the server's memory.
 */
export const defaultMessageMaxBytes = 4 * 1024 * 1024;

/** Connect's handler options with every default filled in. */
export type ValidatedHandlerOptions = ReturnType<typeof validateUniversalHandlerOptions>;

/** Connect's validated handler options, with wirekit's 4 MiB limits where none was given. */
export function validateWirekitHandlerOptions(options: WirekitHandlerOptions): ValidatedHandlerOptions {
  const { validateUniversalHandlerOptions } = connectRuntime().protocol;
  const limits: UniversalHandlerOptions = {
    ...options,
    readMaxBytes: options.readMaxBytes ?? defaultMessageMaxBytes,
    writeMaxBytes: options.writeMaxBytes ?? defaultMessageMaxBytes,
  };
  return validateUniversalHandlerOptions(limits);
}

/** What comes before the codec name in each protocol's content types, as a regular expression. */
const prefixes: Readonly<Record<RpcProtocol, string>> = {
  grpc: 'application/grpc\\+',
  'grpc-web': 'application/grpc-web(?:-text)?\\+',
  'connect-unary': 'application/',
  'connect-stream': 'application/connect\\+',
};

/**
 * The content types a server offering `codecs` accepts under `protocol`, as the one regular
 * expression Connect's router negotiates with (a content type matching no handler is a 415 before
 * any handler runs). It accepts exactly what `codecOfContentType` reads as an offered codec:
 * `charset=utf-8` on JSON alone, and gRPC's and gRPC-Web's bare forms (= proto).
 */
export function offeredContentTypes(protocol: RpcProtocol, codecs: readonly RpcCodecName[]): RegExp {
  const charset = '(?:\\s*;\\s*charset=utf-?8)?';
  const forms = codecs.map((codec) => `${prefixes[protocol]}${codec}${codec === 'json' ? charset : ''}`);
  if (codecs.includes('proto') && protocol === 'grpc') forms.push('application/grpc');
  if (codecs.includes('proto') && protocol === 'grpc-web') forms.push('application/grpc-web(?:-text)?');
  return new RegExp(`^(?:${forms.join('|')})$`, 'i');
}

/** A method's serializations in the codec a call's content type names, made once per codec. */
export interface MethodSerialization {
  input(codec: RpcCodecName): Serialization<unknown>;
  output(codec: RpcCodecName): Serialization<BoxedReply>;
}

interface LimitOptions {
  readonly readMaxBytes: number;
  readonly writeMaxBytes: number;
}

/**
 * Connect's `Serialization`s of a method over wirekit's serializers. Reading a request checks the
 * read limit first; a WirekitError from the codec (truncated bytes, a bad MessagePack byte, a
 * limit) is left to the handler's catch, which answers it by wirekit's table (INVALID_ARGUMENT,
 * RESOURCE_EXHAUSTED: call-error.ts), where Connect's own handlers answer anything but a
 * ConnectError as INTERNAL. Writing a reply unboxes it (handler-options.ts), answers a value the
 * codec refuses as INTERNAL (the server's fault), and checks the write limit. The other directions
 * are never called by a server.
 */
export function createMethodSerialization(
  method: DescMethod,
  options: WirekitHandlerOptions,
  limits: LimitOptions,
): MethodSerialization {
  const { limitSerialization } = connectRuntime().protocol;
  const serializers = options.serializersOf(method);
  const inputs = new Map<RpcCodecName, Serialization<unknown>>();
  const outputs = new Map<RpcCodecName, Serialization<BoxedReply>>();
  return {
    input(codec) {
      let serialization = inputs.get(codec);
      if (serialization === undefined) {
        const serializer = serializers.input.of(codec);
        serialization = limitSerialization<unknown>(
          { parse: (bytes) => serializer.parse(bytes), serialize: notOnAServer },
          limits,
        );
        inputs.set(codec, serialization);
      }
      return serialization;
    },
    output(codec) {
      let serialization = outputs.get(codec);
      if (serialization === undefined) {
        const serializer = serializers.output.of(codec);
        serialization = limitSerialization<BoxedReply>(
          {
            serialize(reply) {
              try {
                // wirekit writes into ArrayBuffers, never SharedArrayBuffers.
                return serializer.serialize(unboxReply(reply)) as Uint8Array<ArrayBuffer>;
              } catch (error) {
                throw replyEncodingError(error);
              }
            },
            parse: notOnAServer,
          },
          limits,
        );
        outputs.set(codec, serialization);
      }
      return serialization;
    },
  };
}

function notOnAServer(): never {
  throw new WirekitBug('a server handler wrote a request or read a reply');
}
