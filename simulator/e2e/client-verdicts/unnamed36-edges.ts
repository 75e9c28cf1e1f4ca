import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 36, the edges of what the rules take as polling and as a remedy: a dashboard polling through a
 * 429 (honouring it, or polling on at its cadence), a 400 "fixed" by sending the same fields in another
 * order, a reconcile loop re-sending a create every 30 s, a status page polling through 500s, and a Retry-After handed to an HTTP-date parser that takes "2" for February 2001.
 */
const CADENCE_MS = 5_000;

/** A dashboard polling /connections every 5 s for `polls` polls; after a 429 it waits `after(ra)` instead. */
async function dashboard(t: Parameters<UnnamedClient2['run']>[0], after: (retryAfterMs: number) => number) {
  const a = auth(t);
  for (let i = 0; i < 12; i++) {
    if (i === 4) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 20, count: 1 });
    const r = await get(t, a, '/connections');
    await sleeper(t)(r.status === 429 ? after(r.retryAfterMs) : CADENCE_MS);
  }
}

export const WELL_BEHAVED_36_EDGES: UnnamedClient2[] = [
  // "respect the wait time of the response": the poller's next tick after the 429 is pushed to the
  // Retry-After (20 s), then it polls every 5 s again.
  {
    does: 'is a dashboard polling GET /connections every 5 s that, after a 429 (Retry-After 20), holds its next poll for the 20 s and then polls on every 5 s',
    pass: ['retry.respects-retry-after'],
    run: (t) => dashboard(t, (ra) => Math.max(ra, CADENCE_MS)),
  },
  // "A read polled at its cadence through failures is polling": a status page reads /connectors every
  // 10 s and keeps that cadence through three 500s in a row (no retries of its own).
  {
    does: 'is a status page reading GET /connectors every 10 s that keeps its cadence through three 500s in a row (it never retries, it only polls)',
    pass: [],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 10; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
        await get(t, a, '/connectors');
        await sleeper(t)(10_000);
      }
    },
  },
];

export const MISBEHAVING_36_EDGES: FaultyClient[] = [
  // "retry only after rate_limited and internal": a reconcile loop "ensures" its connection exists by
  // sending the create again every 30 s under its key, each answered 200 (replayed): a 2xx repeated.
  {
    does: 'is a reconcile loop that "ensures" its connection by sending the same create under its key every 30 s, each answered 200 (replayed)',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Reconciled Rarebit' };
      for (let i = 0; i < 4; i++) {
        ok('ensure', await createWith(t, a, body, 'reconcile-conn-1'));
        await sleeper(t)(30_000);
      }
    },
  },
  // "respect the wait time of the response": the 429 is just another failed tick to the poller, which
  // polls again 5 s later, 15 s before the Retry-After ends.
  {
    does: 'is a dashboard polling GET /connections every 5 s that keeps its cadence through a 429 (Retry-After 20): the next poll 5 s later',
    fails: ['retry.respects-retry-after'],
    run: (t) => dashboard(t, () => CADENCE_MS),
  },
  // "retry only after rate_limited and internal": the 400 is taken for a field-order problem; Jackson is
  // switched to ORDER_MAP_ENTRIES_BY_KEYS and the same fields go again under a new key: the same content.
  {
    does: 'answers a 400 (a one-character scopeLabel) by re-serialising the same fields sorted by key (Jackson ORDER_MAP_ENTRIES_BY_KEYS) under a new key 2 s later',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Q' };
      const refused = await api(t, a, 'POST', '/connections', { body, key: 'jackson-0001' });
      if (refused.status !== 400) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(2_000);
      const sorted = Object.fromEntries(Object.entries(body).sort(([x], [y]) => x.localeCompare(y)));
      const raw = JSON.stringify(sorted, null, 2);
      await api(t, a, 'POST', '/connections', { raw, key: 'jackson-0002' });
    },
  },
  // "respect the wait time of the response": the client tries the HTTP-date form first, and JavaScript's
  // Date parses "2" as 2001-02-01, a time long past: max(0, date - now) is 0, so it retries at once.
  {
    does: 'reads a 429’s Retry-After with new Date(header) first (the HTTP-date form): "2" parses as 2001-02-01, so the wait max(0, date - now) is 0 and the read is retried at once',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      const wait = (_n: number, r: { retryAfterMs: number }) => {
        const date = new Date(String(r.retryAfterMs / 1_000)).getTime();
        return Number.isNaN(date) ? r.retryAfterMs : Math.max(0, date - Date.now());
      };
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
    },
  },
];
