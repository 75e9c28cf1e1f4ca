import { describe, expect, it } from 'vitest';
import type { Exchange } from '../client/http-client.ts';
import { createExchangeLog } from './exchange-log.ts';

const ex = (status: number) => ({ status }) as Exchange;

describe('exchange log', () => {
  it('keeps every exchange with the check that made it; a snapshot does not grow afterwards', () => {
    const log = createExchangeLog();
    log.record('auth.missing-token', ex(401));
    const snapshot = log.all();
    log.record('run', ex(200));
    expect(snapshot.map((e) => [e.check, e.ex.status])).toEqual([['auth.missing-token', 401]]);
    expect(log.all()).toHaveLength(2);
  });
});
