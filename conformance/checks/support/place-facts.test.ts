import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../client/http-client.ts';
import { type Fact, readFacts, writeFacts } from './place-facts.ts';
import type { Observed } from './place-scenario.ts';

const ex = (status: number, json: unknown) => ({ status, json }) as Exchange;
const connection = { id: 'c1', connectorId: 'pos', environment: 'sandbox', scopeLabel: 'x', capabilities: [] };

/** One run of the scenario: a creation, its replay (with `replayMeta`), the conflict, and a list naming `tenant`. */
function observed(tenant: string, replayMeta: Record<string, unknown>, listed = tenant): Observed {
  const created = ex(200, { ok: true, data: connection, meta: { requestId: 'r1' } });
  return {
    tenant,
    self: ex(200, { data: { routes: [] } }),
    list: ex(200, { data: { tenant: listed, connections: [] } }),
    catalog: [],
    create: { ex: created, body: { connectorId: 'pos', environment: 'sandbox', scopeLabel: 'x' }, key: 'k' },
    replay: ex(200, { ok: true, data: { ...connection, state: 'active' }, meta: replayMeta }),
    conflict: ex(409, { ok: false, error: { code: 'idempotency_conflict' } }),
  };
}
const broken = (facts: Fact[]) => facts.filter((f) => f.home && !f.there).map((f) => f.what);

describe('the facts a place is held to', () => {
  it('are only what the home showed: a replay like the home one passes, whatever the home chose', () => {
    const fresh = { requestId: 'r2', replayed: true, idempotencyKey: 'k' };
    expect(broken(writeFacts(observed('a', fresh), observed('b', { ...fresh, requestId: 'r3' })))).toEqual([]);
    // A home that repeats the first requestId and leaves meta.replayed out (its own choice) asks neither of a place.
    const bare = { requestId: 'r1' };
    expect(broken(writeFacts(observed('a', bare), observed('b', bare)))).toEqual([]);
  });

  it('find what one place alone does otherwise: the first answer replayed whole, another tenant named', () => {
    const fresh = { requestId: 'r2', replayed: true, idempotencyKey: 'k' };
    expect(broken(writeFacts(observed('a', fresh), observed('b', { requestId: 'r1' })))).toEqual([
      'the replay says meta.replayed: true',
      'the replay states meta.idempotencyKey',
      'the replay has a meta.requestId of its own',
    ]);
    expect(broken(readFacts(observed('a', fresh), observed('b', fresh, 'a')))).toEqual([
      'GET /connections names tenant b',
    ]);
  });
});
