import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUDIT_DEFAULTS } from '../contract/simulator-defaults.ts';
import { createClock } from '../lib/clock.ts';
import { canonicalJson } from '../contract/canonical-json.ts';
import { createAuditChain, createAuditLog, GENESIS_HASH, hashAuditEntry } from './hash-chain.ts';
import { verifyAuditRange } from '../contract/audit-verify.ts';

const clock = createClock(() => Date.UTC(2026, 6, 1));
const record = (i: number) => ({
  requestId: `req_${i}`,
  actor: 'harbour-backend',
  action: 'connection.create',
  target: `connection:con_${i}`,
});

describe('audit hash chain', () => {
  it('chains entries: seq from 1, genesis prevHash, hash over the canonical content and the previous hash', () => {
    const chain = createAuditChain('harbour-kitchens', { clock });
    const first = chain.append(record(1));
    const second = chain.append({ ...record(2), at: '2026-07-01T10:00:00.000Z' });
    expect(first).toMatchObject({
      seq: 1,
      tenant: 'harbour-kitchens',
      prevHash: GENESIS_HASH,
      at: '2026-07-01T00:00:00.000Z',
    });
    const { hash, ...content } = first;
    expect(hash).toBe(createHash('sha256').update(canonicalJson(content)).digest('hex'));
    // Spelled out, so the documented canonical form is pinned down.
    expect(canonicalJson(content)).toBe(
      `{"action":"connection.create","actor":"harbour-backend","at":"2026-07-01T00:00:00.000Z","prevHash":"${GENESIS_HASH}","requestId":"req_1","seq":1,"target":"connection:con_1","tenant":"harbour-kitchens"}`,
    );
    expect(second).toMatchObject({ seq: 2, prevHash: first.hash, at: '2026-07-01T10:00:00.000Z' });
    expect(chain.head()).toEqual({ seq: 2, hash: second.hash });
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => chain.append({ ...record(3), actor: '' })).toThrow(TypeError);
  });

  it('lists newest first with a proof of the range', () => {
    const chain = createAuditChain('t', { clock });
    for (let i = 1; i <= 10; i++) chain.append(record(i));
    const { entries, proof } = chain.list({ limit: 4 });
    expect(entries.map((e) => e.seq)).toEqual([10, 9, 8, 7]);
    expect(proof).toEqual({
      algorithm: 'sha256',
      canonicalization: 'RFC8785',
      fromSeq: 7,
      toSeq: 10,
      anchorPrevHash: entries[3]!.prevHash,
      headHash: entries[0]!.hash,
      chainHead: { seq: 10, hash: entries[0]!.hash },
    });
    expect(verifyAuditRange(entries, proof)).toEqual({ ok: true, fromSeq: 7, toSeq: 10, count: 4 });
    expect(chain.list().entries).toHaveLength(10);
    expect(() => chain.list({ limit: 0 })).toThrow(RangeError);
    expect(() => chain.list({ limit: AUDIT_DEFAULTS.maxLimit + 1 })).toThrow(RangeError);
  });

  it('an empty chain lists nothing with a verifiable empty proof', () => {
    const { entries, proof } = createAuditChain('t').list();
    expect(entries).toEqual([]);
    expect(proof).toMatchObject({
      fromSeq: 1,
      toSeq: 0,
      anchorPrevHash: GENESIS_HASH,
      headHash: GENESIS_HASH,
      chainHead: { seq: 0, hash: GENESIS_HASH },
    });
    expect(verifyAuditRange(entries, proof).ok).toBe(true);
  });

  it('keeps only maxEntries, and what remains still verifies through the anchor', () => {
    const chain = createAuditChain('t', { maxEntries: 5, clock });
    for (let i = 1; i <= 12; i++) chain.append(record(i));
    expect(chain.size()).toBe(5);
    const { entries, proof } = chain.list({ limit: 50 });
    expect(entries.map((e) => e.seq)).toEqual([12, 11, 10, 9, 8]);
    expect(proof.fromSeq).toBe(8);
    expect(proof.anchorPrevHash).not.toBe(GENESIS_HASH);
    expect(verifyAuditRange(entries, proof).ok).toBe(true);
  });

  it('keeps tenants apart', () => {
    const log = createAuditLog({ clock });
    log.append('harbour-kitchens', record(1));
    log.append('harbour-kitchens', record(2));
    log.append('alpine-bistro', record(3));
    expect(log.list('harbour-kitchens').entries.map((e) => e.requestId)).toEqual(['req_2', 'req_1']);
    expect(log.list('alpine-bistro').entries.map((e) => [e.seq, e.tenant])).toEqual([[1, 'alpine-bistro']]);
    expect(log.head('lakeside-cafes')).toEqual({ seq: 0, hash: GENESIS_HASH });
    log.clear();
    expect(log.head('harbour-kitchens').seq).toBe(0);
  });
});

describe('hashAuditEntry fast path', () => {
  it('hashes exactly the RFC 8785 text of the entry, for usual and unusual field values', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('é', '\u2028', '"\\', '\u0000', '𝄞'));
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 40 }),
        text,
        text,
        text,
        text,
        text,
        text,
        text,
        (seq, requestId, actor, action, target, at, tenant, prevHash) => {
          const e = { seq, requestId, actor, action, target, at, tenant, prevHash };
          expect(hashAuditEntry(e)).toBe(createHash('sha256').update(canonicalJson(e), 'utf8').digest('hex'));
        },
      ),
    );
  });
});
