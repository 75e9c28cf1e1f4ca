import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { freshConflicts } from './idempotency-fresh-conflict.ts';

const M = 'ncs-conformance-run1-';
const ex = (key: string | undefined, status: number, code?: string, text = '') =>
  ({
    method: 'POST',
    url: 'http://h/api/public/v1/connections',
    requestHeaders: key ? { 'Idempotency-Key': key } : {},
    status,
    json: code ? { ok: false, error: { code } } : { ok: true },
    text,
  }) as unknown as Exchange;

describe('freshConflicts', () => {
  it('finds a conflict on a key of the run sent once only', () => {
    const bad = ex(`${M}key-1`, 409, 'idempotency_conflict');
    expect(freshConflicts([ex(`${M}key-0`, 200), bad], M)).toEqual([bad]);
  });
  it('leaves a reused key, an issued or echoed one, and keys of other runs alone', () => {
    const reused = [ex(`${M}key-2`, 200), ex(`${M}key-2`, 409, 'idempotency_conflict')];
    const issued = [
      ex(undefined, 200, undefined, `{"idempotencyKey":"${M}key-3"}`),
      ex(`${M}key-3`, 409, 'idempotency_conflict'),
    ];
    const other = [ex('ncs-conformance-run0-key-4', 409, 'idempotency_conflict')];
    expect(freshConflicts([...reused, ...issued, ...other], M)).toEqual([]);
  });
});
