// Share ids of public result links (spec part 2 §4 sharing): 128 random bits, url-safe.

const SHARE_ID_BYTES = 16;

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** 128 bits from the runtime's CSPRNG as 22 url-safe characters. */
export function newShareId(): string {
  const bytes = new Uint8Array(SHARE_ID_BYTES);
  crypto.getRandomValues(bytes);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += BASE64URL[(value >> bits) & 63];
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE64URL[(value << (6 - bits)) & 63];
  return out;
}
