import { createHash } from 'node:crypto';
import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { boomiTryCatch } from './unnamed15-kit.ts';

/**
 * Round 15, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_15: AmbiguousClient8[] = [
  {
    does: 'sits behind a Linkerd proxy whose retry budget retries each 500 of a read once at once (the app itself never retries), four reads each through one 500',
    why: '"Clients retry with growing intervals and slight random spread": a single immediate retry has no interval to grow or spread; the rules take it as urllib3’s immediate first retry, yet every operation’s only wait is zero',
    judged: [],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
        ['listConnections', '/connections'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 1 });
        const r = await get(t, a, path);
        ok(path, r.status >= 500 ? await get(t, a, path) : r);
        await sleeper(t)(3_000);
      }
    },
  },
  {
    does: 'is a Boomi process with Try/Catch retry count 5 (10, 30, 60, 120, 300 s) reading through five 500s: six attempts over nine minutes',
    why: '"A sample client makes up to 4 attempts": six attempts of one read, but the rules look for a retry within 120 s of the answer, so the 120 s and 300 s waits start new operations (four attempts, then single calls); whether a call 5 minutes later is still the same operation the interface does not say',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 5 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), boomiTryCatch, 5));
    },
  },
  {
    does: 'is an Erlang service keying creates by the SHA-256 of the body, so the same venue ordered again 10 minutes later is replayed under the same key',
    why: '"use a new key for each new operation": with the same content the second create may be the same operation sent again (then the replay is right) or a new one (then the key is reused, and no second connection is made); 10 minutes on it lies outside the 120 s a repeat is looked for in, so the rules judge nothing',
    judged: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Erlang Hash House' };
      const key = `sha256-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 40)}`;
      ok('create', await createWith(t, a, body, key));
      await sleeper(t)(600_000);
      replayed('again', await createWith(t, a, body, key));
    },
  },
  {
    does: 'is a Gleam client honouring Retry-After only on 429s: after a gateway 503 with Retry-After: 5 it waits its own 1 s, then 2 s',
    why: '"Retry-After (recommended wait in seconds)" is listed among the response headers, but the duty "respect the wait time of the response" is the remedy of rate_limited (429); a 503 is no error code of the interface, so whether its Retry-After binds is open',
    judged: [],
    async run(t) {
      const a = auth(t);
      const random = seeded(1584);
      fault(t, { kind: 'unavailable', route: 'listProviders', retryAfterSeconds: 5, count: 2 });
      const wait = (n: number, r: { status: number; retryAfterMs: number }) =>
        r.status === 429 && r.retryAfterMs > 0 ? r.retryAfterMs : 1_000 * 2 ** n + Math.floor(random() * 250);
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
    },
  },
];
