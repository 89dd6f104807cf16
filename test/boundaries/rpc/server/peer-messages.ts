/**
 * The shop service as Connect-ES's own clients see it: protobuf-es messages made from the same
 * descriptors the server routes by, so a client shares nothing with wirekit's codecs but the
 * `.proto` description.
 */
import { create, type DescMessage, type DescService, type MessageShape } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { createClient, type Transport } from '@connectrpc/connect';
import { describeServices } from '../../../../src/boundaries/rpc/service-descriptor.js';
import { type Order, ShopService } from './shop-service.js';

const shopDescriptor = describeServices([ShopService])[0] as DescService;

function methodOf(localName: string) {
  const method = shopDescriptor.method[localName];
  if (method === undefined) throw new Error(`no method ${localName}`);
  return method;
}

// Connect's client is typed by generated descriptors; these are made at run time, so its methods
// are called through a loose signature and their messages read as plain objects.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type LooseMethod = (request: any, options?: any) => any;
export interface LooseClient {
  readonly getOrder: LooseMethod;
  readonly placeOrder: LooseMethod;
  readonly watchOrders: LooseMethod;
  readonly upload: LooseMethod;
  readonly chat: LooseMethod;
}

export function shopClient(transport: Transport): LooseClient {
  return createClient(shopDescriptor, transport) as unknown as LooseClient;
}

/** The Status enum's numbers as protobuf-es carries them (STATUS_PENDING = 0, STATUS_SHIPPED = 1). */
const statusNumbers = { PENDING: 0, SHIPPED: 1 } as const;

export function peerGetOrder(id: bigint): MessageShape<DescMessage> {
  return create(methodOf('getOrder').input, { id });
}

export function peerOrder(order: Order): MessageShape<DescMessage> {
  return create(methodOf('placeOrder').input, {
    id: order.id,
    placedAt: timestampFromDate(order.placedAt),
    blob: order.blob,
    status: statusNumbers[order.status],
    ...(order.note === undefined ? {} : { note: order.note }),
  });
}

/** A protobuf-es Order back in wirekit's shape, to compare with what the handler sent. */
// biome-ignore lint/suspicious/noExplicitAny: a message of a run-time descriptor.
export function fromPeerOrder(message: any): Order {
  return {
    id: message.id,
    placedAt: timestampDate(message.placedAt),
    blob: message.blob,
    status: message.status === 1 ? 'SHIPPED' : 'PENDING',
    ...(message.note === undefined ? {} : { note: message.note }),
  };
}
