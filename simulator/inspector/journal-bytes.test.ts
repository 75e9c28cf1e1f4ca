import { describe, expect, it } from 'vitest';
import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { createJournal, JOURNAL_BODY_BYTES } from './journal.ts';

// Issue 23 item 7: the journal is bounded by bytes, not only by its count of calls.
const MiB = 1024 * 1024;
const post = (n: number, bytes: number): PlainRequest => ({
  method: 'POST',
  path: `/api/public/v1/connections/${n}`,
  query: {},
  headers: { host: '127.0.0.1:4010', 'content-type': 'application/json' },
  body: new Uint8Array(bytes).fill(0x61),
});
const res: PlainResponse = { status: 401, headers: { 'content-type': 'application/json' }, body: '{}' };
const info = (n: number) => ({ requestId: `req_${n}`, startedAt: n, durationMs: 1 });

describe('journal byte budget', () => {
  it('keeps a bounded prefix of each body, never the caller’s buffer, and says how much was cut', () => {
    const j = createJournal({ size: 10 });
    const req = post(1, MiB);
    j.record(req, res, info(1));
    expect(j.stats().bytes).toBeLessThanOrEqual(JOURNAL_BODY_BYTES + 64);
    expect(j.stats().bodiesTruncated).toBe(1);
    const d = j.get(1)!;
    expect(d.requestBody.length).toBeLessThan(JOURNAL_BODY_BYTES + 200);
    expect(d.requestBody).toContain(`cut: ${MiB} bytes received`);
  });

  it('800 one-MiB posts stay inside the byte budget; bodies of the oldest calls are dropped and counted', () => {
    const budget = 4 * MiB;
    const j = createJournal({ size: 5000, burst: 5000, maxBytes: budget });
    for (let n = 1; n <= 800; n++) j.record(post(n, MiB), res, info(n));
    const stats = j.stats();
    expect(stats.bytes).toBeLessThanOrEqual(budget);
    expect(stats.bodiesDropped).toBeGreaterThan(700);
    expect(j.list().length).toBe(800); // every call is still listed
    expect(j.get(1)!.requestBody).toMatch(/dropped: the journal's byte budget/);
    expect(j.get(800)!.requestBody).toMatch(/^a+/);
    j.clear();
    expect(j.stats()).toMatchObject({ bytes: 0, bodiesDropped: 0, bodiesTruncated: 0 });
  });

  it('refuses a budget that is not a positive whole number of bytes', () => {
    expect(() => createJournal({ maxBytes: 0 })).toThrow(RangeError);
  });
});
