// Whether a message names a value (a connection's id): in its raw text, or in a string of its JSON once
// decoded, and inside a string carrying the event encoded in base64 (Pub/Sub push's message.data,
// CloudEvents' data_base64): the payload of deliveries and of stream messages is "not shown".

/** A JSON body's every string, decoded: `\/`, `\u…` and other escapes written as the characters they stand for. */
function jsonStrings(value: unknown, depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (depth > 16 || !value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [k, ...jsonStrings(v, depth + 1)]);
}

/**
 * Whether a delivery's body or a stream message's data names `id`: in its raw text, or in a string of its JSON
 * once decoded (JSON may escape any character, e.g. `/` as `\/` the way PHP writes it: the same value).
 * @example namesValue(Buffer.from('{"id":"connections\\/c1"}'), 'connections/c1') // true
 */
export function namesValue(raw: Buffer | string, id: string): boolean {
  if (raw.includes(id)) return true;
  return readable(raw.toString()).some((s) => s.includes(id));
}

/** Texts read per message, kept for the stream's repeated searches (a reader asks again on every message). */
const READ = new Map<string, string[]>();
const READ_KEPT = 512;

/** A JSON text's strings, and what those carrying base64 decode to ([] when the text is no JSON). */
function readable(text: string): string[] {
  const kept = READ.get(text);
  if (kept) return kept;
  let out: string[] = [];
  try {
    // A string field may carry the event encoded (Pub/Sub push's message.data, CloudEvents' data_base64).
    out = jsonStrings(JSON.parse(text)).flatMap((s) => {
      const d = decoded(s);
      return d ? [s, d] : [s];
    });
  } catch {
    out = [];
  }
  if (READ.size >= READ_KEPT) READ.clear();
  READ.set(text, out);
  return out;
}

const BASE64 = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;
/** A string's base64 (or base64url) decoding as text, or '' when it is no such encoding. */
const decoded = (s: string) =>
  BASE64.test(s) ? Buffer.from(s, /[-_]/.test(s) ? 'base64url' : 'base64').toString('utf8') : '';
