/**
 * A service and the handlers that serve it, as one value: what a server is given for each service
 * it serves, and what the services written here (reflection, health) hand out.
 */
import type { ServiceHandlers, ServiceSchema } from '../../schema/index.js';

export interface ServiceImplementation<S extends ServiceSchema = ServiceSchema> {
  readonly service: S;
  readonly handlers: ServiceHandlers<S>;
}
