import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { replaysWithoutFirst } from './replays.ts';

const creation = (key: string, replayed: boolean, attempts = 1, startedAt?: number, status = 200) =>
  ({
    ...(startedAt !== undefined ? { startedAt } : {}),
    method: 'POST',
    url: 'http://127.0.0.1/api/public/v1/connections',
    requestHeaders: { 'Idempotency-Key': key },
    status,
    headers: {},
    text: '',
    json: { ok: true, data: {}, meta: { replayed } },
    durationMs: 10,
    attempts,
  }) as unknown as Exchange;

describe('generated.replay-after-a-first-call', () => {
  it('fails a replay whose key no other call of the run sent', () => {
    expect(replaysWithoutFirst([creation('k-1', true)]).map((p) => p.problem)).toEqual([
      'meta.replayed true for Idempotency-Key k-1, sent once in the run',
    ]);
  });
  it('takes a replay after (or beside) another call with its key, or after the kit retried it', () => {
    expect(replaysWithoutFirst([creation('k-2', false), creation('k-2', true)])).toEqual([]);
    expect(replaysWithoutFirst([creation('k-3', true), creation('k-3', false)])).toEqual([]);
    expect(replaysWithoutFirst([creation('k-4', true, 2)])).toEqual([]);
  });
  it('fails a first call marked replayed whose key was sent again only after its answer (a 429, then the retry)', () => {
    const refused = creation('k-5', true, 1, 1000, 429);
    const retried = creation('k-5', false, 1, 2000);
    expect(replaysWithoutFirst([refused, retried]).map((p) => p.problem)).toEqual([
      "meta.replayed true for Idempotency-Key k-5 on its first call (429): the key's other calls began after this answer",
    ]);
  });
  it('takes copies sent at once, answered in either order, and calls of unknown start', () => {
    expect(replaysWithoutFirst([creation('k-6', true, 1, 1000), creation('k-6', false, 1, 1005)])).toEqual([]);
    expect(replaysWithoutFirst([creation('k-7', true, 1, 1000), creation('k-7', false)])).toEqual([]);
  });
});
