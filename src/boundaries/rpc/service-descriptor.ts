/**
 * A wirekit service as the descriptors Connect-ES routes by. Connect's router, handlers and
 * transports are keyed by @bufbuild/protobuf's `DescService`/`DescMethod` (a method's path, its
 * streaming kind, its idempotency); wirekit makes them from the same FileDescriptorProtos its
 * reflection service answers with (descriptorFiles), so what Connect routes and what grpcurl is told
 * are one file. Only the descriptors come from protobuf-es: the messages themselves are wirekit's
 * codecs' (message-formats.ts), never protobuf-es messages.
 */
import { createFileRegistry, type DescService, fromBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { WirekitError } from '../../errors/index.js';
import type { ServiceSchema } from '../../schema/index.js';
import { fullNameOf, serviceFiles } from './service-files.js';

// @bufbuild/protobuf is an optional peer, imported here statically: this module is only ever
// reached by a dynamic import behind importPeer (the server's Connect runtime, the client's first
// call), so an entry point loads without the peer and a missing one is WK_PEER_MISSING.

export { fileNameOf, serviceFiles } from './service-files.js';

/** Each service's `DescService`, in the order given, from one registry of their files. */
export function describeServices(
  services: readonly ServiceSchema[],
  files = serviceFiles(services),
): DescService[] {
  // Each file is linked with its imports resolved by name, whatever order the files are in.
  const protos = new Map(
    [...files.files].map(([name, bytes]) => [name, fromBinary(FileDescriptorProtoSchema, bytes)]),
  );
  const registry = createFileRegistry(
    ...[...protos.values()].map((proto) => createFileRegistry(proto, (name) => protos.get(name))),
  );
  return services.map((service) => {
    const described = registry.getService(fullNameOf(service));
    if (described === undefined) {
      throw new WirekitError(
        'WK_SCHEMA_INVALID',
        `service ${fullNameOf(service)} is missing from its own files.`,
      );
    }
    return described;
  });
}
