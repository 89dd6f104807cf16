/**
 * HTTP content negotiation: media types on Accept and Content-Type, codings on Accept-Encoding,
 * WebSocket subprotocols on Sec-WebSocket-Protocol.
 */
export {
  chooseMediaType,
  type MediaRange,
  maxAcceptRanges,
  Negotiator,
  parseAccept,
  qualityOf,
  rangesPastCap,
} from './accept.js';
export { chooseEncoding, maxAcceptEncodings, parseAcceptEncoding } from './encoding.js';
export { essenceOf, type MediaType, parseMediaType, splitOutsideQuotes } from './media-type.js';
export {
  chooseSubprotocol,
  formatOfSubprotocol,
  maxOfferedSubprotocols,
  parseSubprotocols,
  type SubprotocolChoice,
  subprotocolPrefix,
} from './subprotocol.js';
