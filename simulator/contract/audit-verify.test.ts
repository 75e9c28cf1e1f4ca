import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { hashAuditEntry, type AuditEntry } from './audit-hash.ts';
import { memoryAuditChain as createAuditChain } from '../test-support/memory-streams.ts';
import { verifyAuditRange } from './audit-verify.ts';

function sample(n = 8, tail = 6) {
  const chain = createAuditChain('harbour-kitchens', { clock: createClock(() => Date.UTC(2026, 6, 1)) });
  for (let i = 1; i <= n; i++)
    chain.append({
      requestId: `req_${i}`,
      actor: i % 2 ? 'harbour-backend' : 'network-integrator',
      action: 'connection.create',
      target: `connection:con_${i}`,
    });
  // Plain copies, as a client holds them after JSON.
  return JSON.parse(JSON.stringify(chain.list({ limit: tail }))) as {
    entries: AuditEntry[];
    proof: ReturnType<typeof chain.list>['proof'];
  };
}
const FIELDS = ['seq', 'requestId', 'actor', 'action', 'target', 'at', 'tenant', 'prevHash', 'hash'] as const;

describe('verifyAuditRange', () => {
  it('accepts an untouched range, in any order', () => {
    const { entries, proof } = sample();
    expect(verifyAuditRange(entries, proof)).toEqual({ ok: true, fromSeq: 3, toSeq: 8, count: 6 });
    expect(verifyAuditRange([...entries].reverse(), proof).ok).toBe(true);
    const full = sample(5, 50);
    expect(verifyAuditRange(full.entries, full.proof)).toEqual({ ok: true, fromSeq: 1, toSeq: 5, count: 5 });
  });

  it('fails naming the seq when any field of any entry is changed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.constantFrom(...FIELDS), (index, field) => {
        const { entries, proof } = sample();
        const e = entries[index]! as unknown as Record<string, unknown>;
        e[field] =
          field === 'seq'
            ? (e.seq as number) + 100
            : field.endsWith('ash')
              ? (e[field] as string).replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))
              : `${e[field]}x`;
        const result = verifyAuditRange(entries, proof);
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.seq).toBeTypeOf('number');
      }),
    );
    const { entries, proof } = sample();
    entries[2]!.actor = 'intruder';
    expect(verifyAuditRange(entries, proof)).toMatchObject({
      ok: false,
      reason: 'hash_mismatch',
      seq: entries[2]!.seq,
    });
  });

  it('catches a changed entry whose hash was recomputed: the next link breaks', () => {
    const { entries, proof } = sample();
    const oldest = entries[entries.length - 1]!;
    oldest.action = 'connection.delete';
    oldest.hash = hashAuditEntry(oldest);
    expect(verifyAuditRange(entries, proof)).toMatchObject({ ok: false, reason: 'broken_link', seq: oldest.seq + 1 });
    const again = sample();
    const newest = again.entries[0]!;
    newest.target = 'connection:other';
    newest.hash = hashAuditEntry(newest);
    expect(verifyAuditRange(again.entries, again.proof)).toMatchObject({ ok: false, reason: 'head_mismatch', seq: 8 });
  });

  it('catches a dropped middle entry, a reordering and a duplicate', () => {
    const a = sample();
    expect(
      verifyAuditRange(
        a.entries.filter((e) => e.seq !== 5),
        a.proof,
      ),
    ).toMatchObject({ ok: false, reason: 'missing_seq', seq: 5 });
    expect(
      verifyAuditRange(
        a.entries.filter((e) => e.seq !== 8),
        a.proof,
      ),
    ).toMatchObject({ ok: false, reason: 'missing_seq', seq: 8 });
    expect(
      verifyAuditRange(
        a.entries.filter((e) => e.seq !== 3),
        a.proof,
      ),
    ).toMatchObject({ ok: false, reason: 'missing_seq', seq: 3 });
    const b = sample();
    const [x, y] = [b.entries.find((e) => e.seq === 4)!, b.entries.find((e) => e.seq === 6)!];
    [x.seq, y.seq] = [6, 4];
    expect(verifyAuditRange(b.entries, b.proof)).toMatchObject({ ok: false, reason: 'hash_mismatch', seq: 4 });
    const c = sample();
    expect(verifyAuditRange([...c.entries, c.entries[1]!], c.proof)).toMatchObject({
      ok: false,
      reason: 'duplicate_seq',
    });
  });

  it('checks the proof: anchor, head, chain head, range and algorithm', () => {
    const flip = (h: string) => (h[0] === 'a' ? 'b' : 'a') + h.slice(1);
    const s = () => sample();
    let t = s();
    expect(verifyAuditRange(t.entries, { ...t.proof, anchorPrevHash: flip(t.proof.anchorPrevHash) })).toMatchObject({
      ok: false,
      reason: 'anchor_mismatch',
      seq: 3,
    });
    t = s();
    expect(verifyAuditRange(t.entries, { ...t.proof, headHash: flip(t.proof.headHash) })).toMatchObject({
      ok: false,
      reason: 'head_mismatch',
      seq: 8,
    });
    t = s();
    expect(
      verifyAuditRange(t.entries, { ...t.proof, chainHead: { seq: 8, hash: flip(t.proof.headHash) } }),
    ).toMatchObject({ ok: false, reason: 'head_mismatch' });
    t = s();
    expect(verifyAuditRange(t.entries, { ...t.proof, fromSeq: 4 })).toMatchObject({
      ok: false,
      reason: 'range_mismatch',
      seq: 3,
    });
    t = s();
    expect(
      verifyAuditRange(t.entries, { ...t.proof, toSeq: 9, chainHead: { seq: 9, hash: t.proof.headHash } }),
    ).toMatchObject({ ok: false, reason: 'missing_seq', seq: 9 });
    t = s();
    expect(verifyAuditRange(t.entries, { ...t.proof, algorithm: 'md5' })).toMatchObject({
      ok: false,
      reason: 'unsupported_algorithm',
    });
    expect(verifyAuditRange([], { ...t.proof })).toMatchObject({ ok: false, reason: 'range_mismatch' });
  });

  it('says genesis_mismatch when entry 1 does not follow the genesis hash', () => {
    const { entries, proof } = sample(3, 3);
    const first = entries.find((e) => e.seq === 1)!;
    first.prevHash = 'f'.repeat(64);
    first.hash = hashAuditEntry(first);
    const second = entries.find((e) => e.seq === 2)!;
    second.prevHash = first.hash;
    second.hash = hashAuditEntry(second);
    const third = entries.find((e) => e.seq === 3)!;
    third.prevHash = second.hash;
    third.hash = hashAuditEntry(third);
    const forged = {
      ...proof,
      anchorPrevHash: first.prevHash,
      headHash: third.hash,
      chainHead: { seq: 3, hash: third.hash },
    };
    expect(verifyAuditRange(entries, forged)).toMatchObject({ ok: false, reason: 'genesis_mismatch', seq: 1 });
  });

  it('never throws on garbage', () => {
    const { entries, proof } = sample();
    expect(verifyAuditRange(entries, null)).toMatchObject({ ok: false, reason: 'malformed_proof' });
    expect(verifyAuditRange('nope', proof)).toMatchObject({ ok: false, reason: 'malformed_entry' });
    expect(verifyAuditRange([{ seq: 2 }], proof)).toMatchObject({ ok: false, reason: 'malformed_entry', seq: 2 });
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (e, p) => {
        expect(verifyAuditRange(e, p).ok).toBe(false);
      }),
    );
    fc.assert(
      fc.property(fc.array(fc.anything(), { minLength: 1 }), (e) => {
        expect(verifyAuditRange(e, proof).ok).toBe(false);
      }),
    );
  });
});
