import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { replaysWithoutFirst } from './call-checks.ts';

const creation = (key: string, replayed: boolean, attempts = 1) =>
  ({
    method: 'POST',
    url: 'http://127.0.0.1/api/public/v1/connections',
    requestHeaders: { 'Idempotency-Key': key },
    status: 200,
    headers: {},
    text: '',
    json: { ok: true, data: {}, meta: { replayed } },
    durationMs: 1,
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
});
