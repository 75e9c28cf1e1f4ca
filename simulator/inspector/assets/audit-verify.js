// The audit chain check, ported to the browser (Web Crypto): the page recomputes every hash itself
// instead of trusting the server's word. Mirrors simulator/audit/verify.ts; audit-verify.test.ts keeps them in step.

const GENESIS = '0'.repeat(64);

/** RFC 8785 canonical JSON for the values audit entries hold (strings, integers, objects). */
export function canonicalJson(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => value[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

async function sha256Hex(text) {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The hash an entry must carry: sha256 over the canonical JSON of every other field. */
export function entryHash(e) {
  const { seq, requestId, actor, action, target, at, tenant, prevHash } = e;
  return sha256Hex(canonicalJson({ seq, requestId, actor, action, target, at, tenant, prevHash }));
}

/**
 * Verifies a range as GET /audit-log returns it. Resolves to { ok: true, count } or { ok: false, seq, message }.
 * @example await verifyAuditRange(data.entries, data.proof)
 */
export async function verifyAuditRange(entries, proof) {
  if (!globalThis.crypto?.subtle)
    return { ok: false, message: 'this browser context has no Web Crypto (not a secure context)' };
  if (!proof || proof.algorithm !== 'sha256' || proof.canonicalization !== 'RFC8785')
    return { ok: false, message: 'unknown proof algorithm or canonicalization' };
  const sorted = [...entries].sort((a, b) => a.seq - b.seq);
  let prev;
  for (const e of sorted) {
    const expected = prev ? prev.seq + 1 : proof.fromSeq;
    if (e.seq !== expected) return { ok: false, seq: expected, message: `seq ${expected} is missing or repeated` };
    if ((await entryHash(e)) !== e.hash)
      return {
        ok: false,
        seq: e.seq,
        message: `entry ${e.seq} does not hash to its recorded hash: its content was changed`,
      };
    if (!prev && e.prevHash !== proof.anchorPrevHash)
      return { ok: false, seq: e.seq, message: `entry ${e.seq} does not hang from the proof's anchor` };
    if (!prev && e.seq === 1 && e.prevHash !== GENESIS)
      return { ok: false, seq: 1, message: 'entry 1 must follow the genesis hash' };
    if (prev && e.prevHash !== prev.hash)
      return { ok: false, seq: e.seq, message: `entry ${e.seq} does not point at the hash of entry ${prev.seq}` };
    prev = e;
  }
  if (prev && (prev.seq !== proof.toSeq || prev.hash !== proof.headHash))
    return { ok: false, seq: prev.seq, message: `the range does not end at the proof's head (seq ${proof.toSeq})` };
  if (!prev && proof.fromSeq !== proof.toSeq + 1)
    return { ok: false, message: 'the proof names entries that are missing' };
  return { ok: true, count: sorted.length };
}
