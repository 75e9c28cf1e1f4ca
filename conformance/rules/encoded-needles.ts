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

/**
 * A char code folded as the needles are kept: base64url's `-` and `_` as `+` and `/`, letters in lower case
 * (hex is written in either case; base64 folded so too only widens the search: a hit is decoded and compared).
 */
const FOLD = new Uint16Array(128).map((_, c) => (c >= 65 && c <= 90 ? c + 32 : c === 45 ? 43 : c === 95 ? 47 : c));
const fold = (c: number) => (c < 128 ? (FOLD[c] ?? c) : c);

export interface EncodedNeedles {
  /** Hash of a needle's first NEEDLE_HASHED characters (folded) -> the needles (folded) starting so. */
  needles: Map<number, string[]>;
  /** The hashes present, for a lookup without the map on most characters. */
  seen: Uint8Array;
  /** A needle too short to hash (a secret under 6 characters): every text's runs are decoded. */
  always: boolean;
}

/** Hashes are kept to 16 bits (small integers: a lookup costs no allocation), collisions compared in full. */
const HASH_MASK = 0xffff;

function hashOf(text: string): number {
  let h = 0;
  for (let i = 0; i < NEEDLE_HASHED; i++) h = (h * 31 + fold(text.charCodeAt(i))) & HASH_MASK;
  return h;
}

export function encodedIndex(pieces: string[]): EncodedNeedles {
  const index: EncodedNeedles = {
    needles: new Map(),
    seen: new Uint8Array(HASH_MASK + 1),
    always: false,
  };
  const add = (needle: string) => {
    if (needle.length < NEEDLE_HASHED) {
      index.always = true;
      return;
    }
    const folded = Array.from(needle, (ch) => String.fromCharCode(fold(ch.charCodeAt(0)))).join('');
    const h = hashOf(folded);
    index.needles.set(h, [...(index.needles.get(h) ?? []), folded]);
    index.seen[h] = 1;
  };
  for (const piece of pieces) {
    const { base64, hex } = encodedNeedles(piece);
    for (const n of [...base64, ...hex]) add(n);
  }
  return index;
}

/** Whether `text` holds, at `at`, one of the needles (compared folded). */
function needleAt(text: string, at: number, needles: string[]): boolean {
  return needles.some((n) => {
    if (at + n.length > text.length) return false;
    for (let j = 0; j < n.length; j++) if (fold(text.charCodeAt(at + j)) !== n.charCodeAt(j)) return false;
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
  // A run scans the same large answers (the OpenAPI document and its YAML) several times.
  const known = recent.get(text);
  if (known?.index === index) return known.found;
  const found = scan(text, index);
  if (text.length >= RECENT_MIN_CHARS && text.length <= RECENT_MAX_CHARS) {
    if (recent.size >= RECENT_KEPT) recent.delete(recent.keys().next().value as string);
    recent.set(text, { index, found });
  }
  return found;
}

/**
 * Verdicts of recent long texts, for one set of secrets each: the long ones only (a short text scans
 * faster than it is looked up), at most RECENT_KEPT of at most RECENT_MAX_CHARS (8 MB in all).
 */
const recent = new Map<string, { index: EncodedNeedles; found: boolean }>();
const RECENT_MIN_CHARS = 4096;
const RECENT_MAX_CHARS = 512 * 1024;
const RECENT_KEPT = 8;

function scan(text: string, index: EncodedNeedles): boolean {
  // 31^NEEDLE_HASHED within the mask: the weight of the character leaving the window.
  let out = 1;
  for (let i = 0; i < NEEDLE_HASHED; i++) out = (out * 31) & HASH_MASK;
  const { seen, needles } = index;
  let h = 0;
  for (let i = 0; i < text.length; i++) {
    h = (h * 31 + fold(text.charCodeAt(i))) & HASH_MASK;
    if (i >= NEEDLE_HASHED) h = (h - fold(text.charCodeAt(i - NEEDLE_HASHED)) * out) & HASH_MASK;
    if (seen[h] !== 1 || i < NEEDLE_HASHED - 1) continue;
    const found = needles.get(h);
    if (found && needleAt(text, i - NEEDLE_HASHED + 1, found)) return true;
  }
  return false;
}
