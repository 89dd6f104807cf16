/** HTTP content negotiation: media types on Accept and Content-Type, codings on Accept-Encoding. */
export { chooseMediaType, type MediaRange, Negotiator, parseAccept, qualityOf } from './accept.js';
export { chooseEncoding, parseAcceptEncoding } from './encoding.js';
export { essenceOf, type MediaType, parseMediaType, splitOutsideQuotes } from './media-type.js';
