import { api, auth, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { httplugDelay, retryableGem, towerBackoff } from './unnamed23-kit.ts';
import { renewingReader } from './unnamed23-well-behaved-more.ts';

const PATHS = ['/providers', '/connectors', '/capabilities', '/connections', '/providers?category=pos'];

/** Round 23, more misbehaving clients (tokens, streams, versions, browsers, spread). */
export const MISBEHAVING_MORE_23: FaultyClient[] = [
  // "Tokens are short-lived and are renewed, not extended" (and not churned): Duende.AccessTokenManagement
  // with RefreshBeforeExpiration set to 3300 s on one-hour tokens renews every 5 minutes, 55 minutes early.
  {
    does: 'is a .NET worker on Duende.AccessTokenManagement with RefreshBeforeExpiration 3300 s on 3600 s tokens, renewing every 5 minutes',
    fails: ['auth.token-reused'],
    async run(t) {
      await renewingReader(t, { ttlS: 3_600, beforeS: 3_300, everyMs: 60_000, calls: 18 });
    },
  },
  // "unauthorized (401) ... token expired; remedy: request a new access token": a token cached in Redis with
  // a one-hour TTL while the token lives 120 s; after expiry every read gets 401 and the cache is not cleared.
  {
    does: 'is a service caching its 120 s token in Redis under a one-hour TTL, sending it on after the 401s (a different read every 30 s)',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 120);
      let refused = 0;
      for (let i = 0; i < 8; i++) {
        const r = await get(t, a, PATHS[i % PATHS.length] ?? '/providers');
        if (r.status === 401) refused++;
        await sleeper(t)(30_000);
      }
      if (refused < 2) throw new Error(`only ${refused} refusals`);
    },
  },
  // "resumes without gaps by sending Last-Event-ID ... (last number read)": an SSE library that keeps the
  // Last-Event-ID it was opened with and sends it again on reconnect, not the last id it read since.
  {
    does: 'is a consumer whose SSE library reconnects with the Last-Event-ID it was opened with, not the last id read since',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const first = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      const opened = first.at(-1);
      if (opened === undefined) throw new Error('first stream read nothing');
      await sleeper(t)(2_000);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const second = await readStream(t, a, { cursor: opened, count: 2, onOpen: () => publish(t, a.tenant, 2) });
      if (second.length !== 2) throw new Error(`second stream read ${second.length}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: opened, idleMs: 600 });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a Helm values file whose
  // unquoted `serviceVersion: 2026-07-01` YAML turned into a timestamp, sent as 2026-07-01T00:00:00Z.
  {
    does: 'sends Service-Version 2026-07-01T00:00:00Z (an unquoted YAML date in Helm values, rendered as a timestamp) on its reads',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/providers', { version: '2026-07-01T00:00:00Z' });
      await sleeper(t)(20_000);
      await api(t, a, 'GET', '/connectors', { version: '2026-07-01T00:00:00Z' });
    },
  },
  // "Access credentials stay in the partner's backend and are never sent from a browser": a Blazor
  // WebAssembly app calling the interface from the browser with the partner's bearer token.
  {
    does: 'is a Blazor WebAssembly app calling GET /connections from the browser with the bearer token (Origin set)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { headers: { origin: 'https://venues-wasm.partner.example' } });
    },
  },
  // "retry only after rate_limited and internal": a tower retry Policy matching every `Ok(res)` that is not
  // a success, here a 403 for a tenant the client is not released for, twice more.
  {
    does: 'is a Rust service behind a tower retry Policy retrying every non-2xx, re-sending a read refused 403 twice',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      const r = await loop(
        sleeper(t),
        () => get(t, a, '/connections'),
        towerBackoff(seeded(2365)),
        2,
        () => true,
      );
      if (r.status !== 403) throw new Error(`answered ${r.status}`);
    },
  },
  // "growing intervals and slight random spread": HTTPlug's RetryPlugin default error_response_delay
  // (2^retries s): 1 s, then 2 s, exactly, in every one of three reads through two 500s.
  {
    does: 'is a PHP app on HTTPlug’s RetryPlugin with its default delay (1 s, 2 s exactly), three reads each through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), { schedule: httplugDelay, failures: 2, max: 3 });
    },
  },
  // "A sample client makes up to 4 attempts": the Ruby `retryable` gem with tries: 6 and `sleep: ->(n) {
  // 4**n }`... capped by a wrapper at 30 s: six attempts through five 500s.
  {
    does: 'is a Ruby script under Retryable.retryable(tries: 6, sleep: ->(n) { [4**n, 30].min }) reading connectors six times through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 5 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          (n) => Math.min(retryableGem(n), 30_000),
          5,
        ),
      );
    },
  },
];
