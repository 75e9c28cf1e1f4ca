import { createHmac, timingSafeEqual } from 'node:crypto';
import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { invlRetry } from './unnamed21-kit.ts';

/**
 * Round 21, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_21: AmbiguousClient8[] = [
  {
    does: 'is a Python job under the `retry` decorator (tries=3, delay=0.5, backoff=2, jitter=(0, 0.25)), three reads each through two 500s (seed 2101: second waits 1165, 1155, 1167 ms)',
    why: '"growing intervals and slight random spread": the decorator sleeps exactly 0.5 s first and adds its draw from the second retry on, so half of the six same-position comparisons are 0 ms; the rule then fails the client whenever two of its three later draws fall within 40 ms of each other (here, and 4 of 40 other seeds swept on 2026-11-27) and is undecided otherwise, never passing. Whether a schedule spread from its second retry on has the "slight random spread" asked is not said (its first retries do fall in step)',
    judged: ['retry.spread'],
    async run(t) {
      const random = seeded(2101);
      const a = auth(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        const wait = invlRetry({ delayMs: 500, backoff: 2, jitterMs: [0, 250] }, random);
        ok(path, await loop(sleeper(t), () => get(t, a, path), wait, 2));
        await sleeper(t)(5_000);
      }
    },
  },
  {
    does: 'is an Airtable automation whose "Run a script" action holds the partner’s token in its input variables and reads the connections from Airtable’s cloud',
    why: "\"Access credentials stay in the partner's backend and are never sent from a browser\": the call comes from a server, but a third party's (the token is stored in Airtable, not in the partner's backend); the rule judges browsers (Origin, Fetch Metadata), and a server of a third party is not visible as such",
    judged: [],
    async run(t) {
      await get(t, auth(t), '/connections');
    },
  },
  {
    does: 'is a Metaflow step under @retry’s defaults (times=3, minutes_between_retries=2), each attempt a new task with its own token, reading through three 500s',
    why: '"Clients retry with growing intervals": the waits are a constant 2 minutes (plus 3 s of task start), so they do not grow, but they fall beyond the 120 s after an answer in which the rules look for a retry (the trade-off against schedules and load scripts that repeat a read), so the attempts are not joined into one sequence',
    judged: [],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      for (let attempt = 0; attempt < 4; attempt++) {
        const r = await get(t, auth(t), '/connections');
        if (r.status === 200) return;
        await sleeper(t)(123_000);
      }
    },
  },
  {
    does: 'sits behind a Kong service (retries 5) whose upstream connection drops twice in a row after a create’s commit, so Kong re-sends it at once twice, key and all',
    why: '"retry with growing intervals" against a proxy re-sending a request at once when the connection broke before any answer (no 429 or 500 was received, so no wait time was given); the key makes the re-sends harmless, and three attempts stay within four',
    judged: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Kong Kebab Corner' };
      await loop(
        sleeper(t),
        () => createWith(t, a, body, 'kong-req-2f8c0d13-create'),
        () => 0,
        5,
      );
    },
  },
  {
    does: 'is a receiver comparing only the first 32 hex digits of v1 with the first 32 of its HMAC (a 128-bit tag, constant time), in the 300 s window',
    why: '"The signature is an HMAC with SHA-256 ... written as lowercase hex. The receiver compares in constant time": a truncated tag is weaker than the interface\'s 256 bits but refuses every forged, stale and malformed case the check sends (a v1 cut to 16 digits is too short for it); no black-box check can tell 128 from 256 compared bits',
    judged: [],
    async run(t) {
      return checkReceiver(t, {
        verify: (raw, h, secret) => {
          const parts = Object.fromEntries((h ?? '').split(',').map((p) => p.trim().split('=') as [string, string]));
          const ts = parts.t ?? '';
          const v1 = (parts.v1 ?? '').slice(0, 32);
          const mine = createHmac('sha256', secret).update(`${ts}.`).update(raw).digest('hex').slice(0, 32);
          const fresh = /^\d+$/.test(ts) && Math.abs(Date.now() / 1000 - Number(ts)) <= 300;
          return fresh && v1.length === 32 && timingSafeEqual(Buffer.from(v1), Buffer.from(mine));
        },
      });
    },
  },
];
