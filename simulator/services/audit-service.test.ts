import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUDIT_DEFAULTS } from '../contract/simulator-defaults.ts';
import { createClock } from '../lib/clock.ts';
import { canonicalJson } from '../contract/canonical-json.ts';
import { GENESIS_HASH, hashAuditEntry } from '../contract/audit-hash.ts';
import { verifyAuditRange } from '../contract/audit-verify.ts';
import { createAuditStore } from '../state/audit-store.ts';
import { memoryAudit, memoryAuditChain as createAuditChain } from '../test-support/memory-streams.ts';
import { createAuditService } from './audit-service.ts';
import { networkLike } from '../test-support/network-like.ts';

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
    const log = memoryAudit({ clock });
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

describe.each([
  ['memory (answers at once)', false],
  ['promise-answering repository', true],
])('audit service over %s', (_name, async) => {
  const setup = (maxEntries = 100) => {
    const memory = createAuditStore();
    const audit = createAuditService({ repository: async ? networkLike(memory) : memory, clock, maxEntries });
    return { audit, memory };
  };

  it('chains appends per tenant and answers at once only from memory', async () => {
    const { audit } = setup();
    const first = audit.append('t', record(1));
    expect(first instanceof Promise).toBe(async);
    const a = await first;
    const b = await audit.append('t', record(2));
    const other = await audit.append('u', record(3));
    expect([a.seq, b.seq, other.seq]).toEqual([1, 2, 1]);
    expect(b.prevHash).toBe(a.hash);
    expect(other.prevHash).toBe(GENESIS_HASH);
    expect(hashAuditEntry(b)).toBe(b.hash);
    expect(await audit.head('t')).toEqual({ seq: 2, hash: b.hash });
    expect(await audit.head('nobody')).toEqual({ seq: 0, hash: GENESIS_HASH });
    expect(() => audit.append('t', { ...record(4), target: '' })).toThrow(TypeError);
    expect(await audit.size('t')).toBe(2);
  });

  it('pages backwards with before; every page and the held chain verify', async () => {
    const { audit } = setup(8);
    for (let i = 1; i <= 20; i++) await audit.append('t', record(i));
    const top = await audit.list('t', { limit: 3 });
    expect(top.entries.map((e) => e.seq)).toEqual([20, 19, 18]);
    const next = await audit.list('t', { limit: 3, before: top.proof.fromSeq });
    expect(next.entries.map((e) => e.seq)).toEqual([17, 16, 15]);
    expect(verifyAuditRange(next.entries, next.proof).ok).toBe(true);
    // Below the oldest held entry (13): an empty range anchored where entry 13 hangs.
    const below = await audit.list('t', { limit: 3, before: 13 });
    expect(below.entries).toEqual([]);
    expect(below.proof).toMatchObject({ fromSeq: 13, toSeq: 12, chainHead: { seq: 20 } });
    expect(verifyAuditRange(below.entries, below.proof).ok).toBe(true);
    expect(await audit.verify('t')).toEqual({ ok: true, fromSeq: 13, toSeq: 20, count: 8 });
    expect(await audit.verify('t', { limit: 2, before: 16 })).toEqual({ ok: true, fromSeq: 14, toSeq: 15, count: 2 });
    expect(() => audit.list('t', { before: 0 })).toThrow(RangeError);
  });

  it('verification catches an entry changed in the repository', async () => {
    const { audit, memory } = setup();
    for (let i = 1; i <= 4; i++) await audit.append('t', record(i));
    const held = memory.window('t', undefined, 10).entries;
    memory.clear();
    memory.load(
      't',
      held.map((e) => (e.seq === 3 ? { ...e, actor: 'someone-else' } : e)),
      100,
    );
    expect(await audit.verify('t')).toMatchObject({ ok: false, seq: 3 });
  });

  it('appends racing for one seq are chained one after the other, never forked', async () => {
    const { audit } = setup();
    const sent = await Promise.all(Array.from({ length: 5 }, (_, i) => audit.append('t', record(i + 1))));
    expect(sent.map((e) => e.seq).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await audit.verify('t')).toEqual({ ok: true, fromSeq: 1, toSeq: 5, count: 5 });
  });

  it('clear starts every chain again from seq 1', async () => {
    const { audit } = setup();
    await audit.append('t', record(1));
    await audit.clear();
    expect(await audit.head('t')).toEqual({ seq: 0, hash: GENESIS_HASH });
    expect((await audit.append('t', record(2))).prevHash).toBe(GENESIS_HASH);
  });
});

describe('hashAuditEntry fast path', () => {
  it('hashes exactly the RFC 8785 text of the entry, for usual and unusual field values', () => {
    const text = fc.oneof(fc.string(), fc.constantFrom('é', '\u2028', '"\\', '\u0000', '𝄞', '\ud800', 'a\udc00b'));
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
