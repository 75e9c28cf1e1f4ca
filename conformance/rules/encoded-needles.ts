// Where a secret may hide in base64, base64url or hex: the encodings of its pieces, found in one pass over a
// text, so that the leak scan decodes a text's encoded runs only when one may hold a secret.
/**
 * What a piece looks like inside a longer base64 or hex text: for each of the three byte offsets it may
 * start at, the characters of the base64 encoding that depend on the piece alone (either alphabet: `+` or
 * `-`, `/` or `_`), and its hex. A view of encodedViews holding the piece comes from a run holding one.
 * @example encodedNeedles('ncs_at_0') // { base64: ['bmNzX2F0Xz', '5jc19hdF8w', 'uY3NfYXRfM'], hex: ['6e63735f61745f30'] }
 */
export function encodedNeedles(piece: string): { base64: string[]; hex: string[] } {
  const bytes = Buffer.from(piece, 'latin1');
  const base64: string[] = [];
  for (let at = 0; at < 3; at++) {
    const text = Buffer.concat([Buffer.alloc(at), bytes]).toString('base64');
    const needle = text.slice(Math.ceil((8 * at) / 6), Math.floor((8 * (at + bytes.length)) / 6));
    if (needle.length > 0) base64.push(needle);
  }
  return { base64, hex: [bytes.toString('hex')] };
}

/** Characters of a needle's prefix hashed to find where a needle may start (the shortest needle has 7). */
const NEEDLE_HASHED = 7;

/** A char code as the needles are written: base64url's `-` and `_` as `+` and `/`, hex letters in lower case. */
const base64Code = (c: number) => (c === 45 ? 43 : c === 95 ? 47 : c);
const hexCode = (c: number) => (c >= 65 && c <= 70 ? c + 32 : c);

export interface EncodedNeedles {
  /** Hash of a needle's first NEEDLE_HASHED characters -> the needles (normalized) starting so. */
  base64: Map<number, string[]>;
  hex: Map<number, string[]>;
  /** The hashes present, for a lookup without the maps on most characters. */
  base64Seen: Uint8Array;
  hexSeen: Uint8Array;
  /** A needle too short to hash (a secret under 6 characters): every text's runs are decoded. */
  always: boolean;
}

/** Hashes are kept to 16 bits (small integers: a lookup costs no allocation), collisions compared in full. */
const HASH_MASK = 0xffff;

function hashOf(text: string, code: (c: number) => number): number {
  let h = 0;
  for (let i = 0; i < NEEDLE_HASHED; i++) h = (h * 31 + code(text.charCodeAt(i))) & HASH_MASK;
  return h;
}

export function encodedIndex(pieces: string[]): EncodedNeedles {
  const index: EncodedNeedles = {
    base64: new Map(),
    hex: new Map(),
    base64Seen: new Uint8Array(HASH_MASK + 1),
    hexSeen: new Uint8Array(HASH_MASK + 1),
    always: false,
  };
  const add = (into: Map<number, string[]>, seen: Uint8Array, needle: string, code: (c: number) => number) => {
    if (needle.length < NEEDLE_HASHED) {
      index.always = true;
      return;
    }
    const h = hashOf(needle, code);
    into.set(h, [...(into.get(h) ?? []), needle]);
    seen[h] = 1;
  };
  for (const piece of pieces) {
    const { base64, hex } = encodedNeedles(piece);
    for (const n of base64) add(index.base64, index.base64Seen, n, base64Code);
    for (const n of hex) add(index.hex, index.hexSeen, n, hexCode);
  }
  return index;
}

/** Whether `text` holds, at `at`, one of the needles (compared as normalized by `code`). */
function needleAt(text: string, at: number, needles: string[], code: (c: number) => number): boolean {
  return needles.some((n) => {
    if (at + n.length > text.length) return false;
    for (let j = 0; j < n.length; j++) if (code(text.charCodeAt(at + j)) !== n.charCodeAt(j)) return false;
    return true;
  });
}

/**
 * Whether the text holds one of the needles: one pass of two rolling hashes over the text (a pattern of
 * hundreds of alternatives cost more than decoding every run), each hit compared in full.
 */
export function holdsEncoded(text: string, index: EncodedNeedles): boolean {
  if (index.always) return true;
  if (text.length < NEEDLE_HASHED) return false;
  // 31^NEEDLE_HASHED within the mask: the weight of the character leaving the window.
  let out = 1;
  for (let i = 0; i < NEEDLE_HASHED; i++) out = (out * 31) & HASH_MASK;
  let b = 0;
  let x = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    b = (b * 31 + base64Code(c)) & HASH_MASK;
    x = (x * 31 + hexCode(c)) & HASH_MASK;
    if (i >= NEEDLE_HASHED) {
      const gone = text.charCodeAt(i - NEEDLE_HASHED);
      b = (b - base64Code(gone) * out) & HASH_MASK;
      x = (x - hexCode(gone) * out) & HASH_MASK;
    }
    if (i < NEEDLE_HASHED - 1) continue;
    const at = i - NEEDLE_HASHED + 1;
    if (index.base64Seen[b] === 1) {
      const b64 = index.base64.get(b);
      if (b64 && needleAt(text, at, b64, base64Code)) return true;
    }
    if (index.hexSeen[x] === 1) {
      const hex = index.hex.get(x);
      if (hex && needleAt(text, at, hex, hexCode)) return true;
    }
  }
  return false;
}
