export {
  type DecodeAnyOptions,
  type Decoded,
  decodeAny,
  decodeAnyAsync,
  type EnvelopeOptions,
  encodeEnveloped,
  encodeEnvelopedAsync,
} from './enveloped.js';
export { schemaFingerprint } from './fingerprint.js';
export {
  type EnvelopeHeader,
  envelopeVersion,
  formatIds,
  hasEnvelope,
  readEnvelope,
  writeEnvelope,
} from './header.js';
