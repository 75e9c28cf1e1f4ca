import { auth, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get } from './unnamed8-kit.ts';

/**
 * Round 19 probes of how the rules tell processes apart by their tokens: one process that fetches a new
 * token as part of its retry (tokens used one after the other, never two at once) is still one process,
 * and still owes what its earlier token was told.
 */
export const MISBEHAVING_PROBES_19: FaultyClient[] = [
  // "respect the wait time of the response": a Hatchet step that takes a 429 for its token's quota, fetches
  // a new token and retries 200 ms later, though Retry-After said 5.
  {
    does: 'is a Hatchet step that, on a 429 (Retry-After 5), fetches a new token and retries the read 200 ms later',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const first = auth(t, undefined, 3_600);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 5, count: 1 });
      const r = await get(t, first, '/capabilities');
      if (r.status !== 429) throw new Error(`answered ${r.status}`);
      await sleeper(t)(200);
      await get(t, auth(t, undefined, 3_600), '/capabilities');
    },
  },
  // "A sample client makes up to 4 attempts": a pg-boss handler that, after four failed attempts of a read,
  // suspects its token, fetches a new one and starts four attempts over: eight attempts of one read.
  {
    does: 'is a pg-boss handler making four attempts of a read through 500s, then fetching a new token and making four more (eight in all)',
    fails: ['retry.attempt-limit'],
    async run(t) {
      let a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 7 });
      for (let attempt = 0; attempt < 8; attempt++) {
        if (attempt === 4) a = auth(t, undefined, 3_600);
        const r = await get(t, a, '/connectors?category=pos');
        if (r.status === 200) return;
        await sleeper(t)(1_000 * 2 ** (attempt % 4) + 37 * attempt);
      }
    },
  },
  // "a 429 in it still must be waited out" (the rules' reading of polling) and "respect the wait time of
  // the response": an Odoo ir.cron polling every 2 s that keeps its cadence through a 429 (Retry-After 6).
  {
    does: 'is an Odoo ir.cron polling the connections every 2 s that keeps its cadence through a 429 (Retry-After 6)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      for (let run = 0; run < 6; run++) {
        if (run === 3) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 6, count: 1 });
        await get(t, a, '/connections');
        await sleeper(t)(2_000);
      }
    },
  },
];
