import { type AuditEntry, type AuditProof, GENESIS_HASH, hashAuditEntry } from './audit-hash.ts';
import { CANONICALIZATION } from './canonical-json.ts';

export type AuditFailureReason =
  | 'malformed_proof'
  | 'malformed_entry'
  | 'unsupported_algorithm'
  | 'range_mismatch'
  | 'duplicate_seq'
  | 'missing_seq'
  | 'hash_mismatch'
  | 'broken_link'
  | 'anchor_mismatch'
  | 'genesis_mismatch'
  | 'head_mismatch';

export type AuditVerifyResult =
  | { ok: true; fromSeq: number; toSeq: number; count: number }
  | { ok: false; reason: AuditFailureReason; seq?: number; message: string };

const HEX64 = /^[0-9a-f]{64}$/;
const isSeq = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const fail = (reason: AuditFailureReason, message: string, seq?: number): AuditVerifyResult => ({
  ok: false,
  reason,
  ...(seq !== undefined ? { seq } : {}),
  message,
});

/** The fields of a proof that are missing or not of their form (empty: a proof this verifier reads). */
function proofProblems(p: unknown): string[] {
  if (typeof p !== 'object' || p === null) return ['the proof itself'];
  const proof = p as Partial<AuditProof>;
  const head = proof.chainHead as { seq?: unknown; hash?: unknown } | null | undefined;
  const checks: [string, boolean][] = [
    ['algorithm', typeof proof.algorithm === 'string'],
    ['canonicalization', typeof proof.canonicalization === 'string'],
    ['fromSeq', isSeq(proof.fromSeq)],
    ['toSeq', isSeq(proof.toSeq)],
    ['anchorPrevHash (64 hex)', HEX64.test(String(proof.anchorPrevHash))],
    ['headHash (64 hex)', HEX64.test(String(proof.headHash))],
    [
      'chainHead {seq, hash}',
      typeof head === 'object' && head !== null && isSeq(head.seq) && HEX64.test(String(head.hash)),
    ],
  ];
  return checks.filter(([, ok]) => !ok).map(([name]) => name);
}

function checkProof(p: unknown): p is AuditProof {
  return proofProblems(p).length === 0;
}

function checkEntry(e: unknown): e is AuditEntry {
  const entry = e as AuditEntry | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    isSeq(entry.seq) &&
    entry.seq >= 1 &&
    (['requestId', 'actor', 'action', 'target', 'at', 'tenant'] as const).every((k) => typeof entry[k] === 'string') &&
    HEX64.test(String(entry.prevHash)) &&
    HEX64.test(String(entry.hash))
  );
}

/**
 * Recomputes a returned audit range: every entry's hash from its canonical content, every link to the
 * previous hash, the anchor and the head of the proof. Entries may come in any order (newest first as
 * the endpoint returns them); their seq values decide. Never throws, whatever it is given.
 * @example const { data } = await (await fetch(`${api}/audit-log?limit=50`, { headers })).json();
 *          verifyAuditRange(data.entries, data.proof) // { ok: true, fromSeq: 1, toSeq: 50, count: 50 }
 */
export function verifyAuditRange(entries: unknown, proof: unknown): AuditVerifyResult {
  if (!checkProof(proof)) return fail('malformed_proof', `the proof lacks ${proofProblems(proof).join(', ')}`);
  if (proof.algorithm !== 'sha256' || proof.canonicalization !== CANONICALIZATION) {
    return fail(
      'unsupported_algorithm',
      `only sha256 over ${CANONICALIZATION} canonical JSON is known, not ${proof.algorithm} over ${proof.canonicalization}`,
    );
  }
  if (!Array.isArray(entries)) return fail('malformed_entry', 'entries must be an array');
  for (const e of entries) {
    if (!checkEntry(e))
      return fail(
        'malformed_entry',
        'an entry lacks a field or has one of the wrong type',
        isSeq((e as AuditEntry)?.seq) ? (e as AuditEntry).seq : undefined,
      );
  }
  const sorted = [...(entries as AuditEntry[])].sort((a, b) => a.seq - b.seq);
  if (sorted.length === 0) {
    if (proof.fromSeq !== proof.toSeq + 1 || proof.anchorPrevHash !== proof.headHash)
      return fail('range_mismatch', `the proof names seq ${proof.fromSeq}..${proof.toSeq} but no entries were given`);
  }
  let prev: AuditEntry | undefined;
  for (const e of sorted) {
    if (prev && e.seq === prev.seq) return fail('duplicate_seq', `seq ${e.seq} appears twice`, e.seq);
    const expected = prev ? prev.seq + 1 : proof.fromSeq;
    if (e.seq < expected || e.seq > proof.toSeq)
      return fail(
        'range_mismatch',
        `seq ${e.seq} lies outside the proof's range ${proof.fromSeq}..${proof.toSeq}`,
        e.seq,
      );
    if (e.seq > expected) return fail('missing_seq', `seq ${expected} is missing from the range`, expected);
    if (hashAuditEntry(e) !== e.hash)
      return fail('hash_mismatch', `entry ${e.seq} does not hash to its recorded hash: its content was changed`, e.seq);
    if (!prev && e.prevHash !== proof.anchorPrevHash)
      return fail('anchor_mismatch', `entry ${e.seq} does not hang from the proof's anchorPrevHash`, e.seq);
    if (!prev && e.seq === 1 && e.prevHash !== GENESIS_HASH)
      return fail('genesis_mismatch', 'entry 1 must follow the genesis hash (64 zeros)', 1);
    if (prev && e.prevHash !== prev.hash)
      return fail('broken_link', `entry ${e.seq} does not point at the hash of entry ${prev.seq}`, e.seq);
    prev = e;
  }
  if (prev && prev.seq !== proof.toSeq)
    return fail('missing_seq', `seq ${prev.seq + 1} is missing from the range`, prev.seq + 1);
  if (prev && prev.hash !== proof.headHash)
    return fail('head_mismatch', `entry ${prev.seq} is not the proof's headHash`, prev.seq);
  if (
    proof.toSeq > proof.chainHead.seq ||
    (proof.toSeq === proof.chainHead.seq && proof.headHash !== proof.chainHead.hash)
  ) {
    return fail(
      'head_mismatch',
      `the range ends at seq ${proof.toSeq} but the chain head is seq ${proof.chainHead.seq} with another hash`,
      proof.toSeq,
    );
  }
  return { ok: true, fromSeq: proof.fromSeq, toSeq: proof.toSeq, count: sorted.length };
}
