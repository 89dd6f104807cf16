/**
 * Longest bignum (tags 2 and 3) read: cbor-x builds a bignum byte by byte, so a long one costs
 * quadratic time. The scanner and the schema reader refuse longer ones, and the writer keeps to it,
 * so that nothing wirekit writes is refused by its own reader.
 */
export const maxBignumBytes = 1024;
