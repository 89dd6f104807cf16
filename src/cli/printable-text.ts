/**
 * Whether bytes read as text a person would read: valid UTF-8 with no control characters other
 * than tab and line breaks. Where output shows bytes of unknown meaning (Kafka keys and headers,
 * Protobuf length-delimited fields), such bytes are shown as text and any others as base64.
 */
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when they are printable UTF-8; undefined otherwise. */
export function printableText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return undefined;
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for.
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}
