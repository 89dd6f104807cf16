/**
 * The `.proto` files a server's services are described in, as reflection clients see them: one
 * file per service, named by its package and name, then the well-known files they import. Both
 * what reflection answers (reflection.ts) and what Connect routes by (service-descriptor.ts) are
 * these files; this module needs no RPC library, so the reflection service does not either.
 */
import { type DescriptorFiles, descriptorFiles } from '../../codecs/protobuf/descriptor-files.js';
import type { ServiceSchema } from '../../schema/index.js';

/** The full name of a service: `orders.v1.OrderService`. */
export function fullNameOf(service: ServiceSchema): string {
  return service.namespace === undefined ? service.name : `${service.namespace}.${service.name}`;
}

/**
 * The path of the `.proto` file a service is described in, as reflection clients see it: the
 * package's folders and the service's name (`orders/v1/OrderService.proto`). A server that serves
 * several services gives each its own file; their messages may repeat across files only if they
 * are the same schema in the same package (descriptorFiles refuses two declarations of a symbol).
 */
export function fileNameOf(service: ServiceSchema): string {
  const folders = service.namespace === undefined ? [] : service.namespace.split('.');
  return [...folders, `${service.name}.proto`].join('/');
}

/** The descriptor files of a set of services: one file each, then the well-known files they import. */
export function serviceFiles(services: readonly ServiceSchema[]): DescriptorFiles {
  return descriptorFiles(Object.fromEntries(services.map((service) => [fileNameOf(service), service])));
}
