import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { PATHS } from './unnamed24-kit.ts';

/** Round 24, more misbehaving clients (tokens, versions, browsers, keys, streams, waits after Retry-After). */
export const MISBEHAVING_MORE_24: FaultyClient[] = [
  // "Tokens are short-lived and are renewed, not extended" (not churned): a Roblox server takes every 429 for
  // a throttled token and fetches a new one (one-hour tokens), though it waits out each Retry-After.
  {
    does: 'is a Roblox server fetching a new one-hour token after every 429 (waiting its Retry-After of 1 s), a read every 2 s',
    fails: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 3_600);
      for (let i = 0; i < 12; i++) {
        if (i % 3 === 0) fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 1 });
        const path = i % 3 === 0 ? '/providers' : (PATHS[i % PATHS.length] ?? '/connectors');
        const r = await get(t, a, path);
        if (r.status === 429) {
          await sleeper(t)(r.retryAfterMs);
          a = auth(t, undefined, 3_600);
          ok('after 429', await get(t, a, path));
        }
        await sleeper(t)(2_000);
      }
    },
  },
  // "unauthorized ... remedy: request a new access token": a PL/SQL job treats 401 as transient and retries
  // its expired token with backoff (1, 2, 4 s).
  {
    does: 'is a PL/SQL job retrying a 401 (its token expired) with the same token after 1, 2 and 4 s',
    fails: ['auth.renewed-after-expiry', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 60);
      ok('first', await get(t, a, '/connections'));
      await sleeper(t)(61_000);
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/connections'),
        (n) => 1_000 * 2 ** n,
        3,
        (x) => x.status === 401,
      );
      if (r.status !== 401) throw new Error(`answered ${r.status}`);
    },
  },
  // "never sent from a browser": a Godot game exported to HTML5 calls the interface from the player's browser
  // with a token baked into the export.
  {
    does: 'is a Godot game exported to HTML5 calling GET /connectors from the player’s browser with a bearer token (Origin set)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      await api(t, auth(t), 'GET', '/connectors', { headers: { origin: 'https://play.example-games.test' } });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a PL/SQL job stores the version
  // in a VARCHAR2(7) and sends "2026-07".
  {
    does: 'is a PL/SQL job sending Service-Version 2026-07 (the identifier cut to a VARCHAR2(7)) on one read',
    fails: ['version.service-version-sent'],
    async run(t) {
      await api(t, auth(t), 'GET', '/providers', { version: '2026-07' });
    },
  },
  // "growing intervals": after a server-set wait (Retry-After 1), the client's own waits are a constant 1 s.
  {
    does: 'waits a 429’s Retry-After of 1 s, then a constant 1 s of its own after each of two 500s, on three reads',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 1, count: 1 });
        fault(t, { kind: 'internal', route, count: 2 });
        ok(
          path,
          await loop(
            sleeper(t),
            () => get(t, a, path),
            (_n, r) => (r.retryAfterMs > 0 ? r.retryAfterMs : 1_000),
            3,
          ),
        );
        await sleeper(t)(5_000);
      }
    },
  },
  // "use a new key for each new operation": a Symfony Messenger batch handler keys every create of a batch
  // with the batch id, so the second venue of the batch goes under the first one's key.
  {
    does: 'is a Symfony Messenger batch handler keying every create of a batch with the batch id (two venues, one key)',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'batch-2026-11-27-0042';
      ok('first', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Batch Bao' }, key));
      await sleeper(t)(200);
      const second = await createWith(t, a, { ...CONNECTION, scopeLabel: 'Batch Biryani' }, key);
      if (second.status !== 409) throw new Error(`second ${second.status}`);
    },
  },
  // "resumes without gaps by sending Last-Event-ID ... (last number read)": a consumer checkpoints its
  // cursor every 5 messages; cut after 7, it resumes from 5 and reads 6 and 7 again.
  {
    does: 'is a consumer checkpointing its cursor every 5 messages, cut by the server after 7, resuming from the checkpoint (5)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 7, count: 1 });
      // Read until the server ends the stream (no count: a consumer closing it itself mid-burst is another case).
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 8) });
      if (ids.length !== 7) throw new Error(`read ${ids.length}`);
      const checkpoint = ids[4] ?? 0;
      await sleeper(t)(2_000);
      await readStream(t, a, { cursor: checkpoint, idleMs: 600 });
    },
  },
];
