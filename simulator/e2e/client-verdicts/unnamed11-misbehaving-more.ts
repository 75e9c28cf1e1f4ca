import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { now } from './unnamed10-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/** Round 11, misbehaving clients (tokens, streams, browsers, versions, Retry-After). */
export const MISBEHAVING_MORE_11: FaultyClient[] = [
  // "Tokens are short-lived and are renewed, not extended": a timer renews hour-long tokens every
  // 5 minutes while the service reads every 20 s: each token is dropped with 55 minutes left.
  {
    does: 'renews its hour-long token on a 5-minute timer while reading every 20 s for 20 minutes',
    fails: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 3_600);
      let renewAt = now(t) + 300_000;
      for (let i = 0; i < 60; i++) {
        if (now(t) >= renewAt) {
          a = auth(t, undefined, 3_600);
          renewAt += 300_000;
        }
        ok('read', await get(t, a, i % 2 ? '/connectors' : '/providers'));
        await sleep(20_000);
      }
    },
  },
  // The same sentence: a serverless function behind a webhook fan-in, invoked every 2 s, cold-starts
  // each time without a token cache and fetches an hour-long token for a single call.
  {
    does: 'is a serverless function invoked every 2 s that fetches a new hour-long token on every invocation for its single read',
    fails: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      for (let i = 0; i < 8; i++) {
        ok('read', await get(t, auth(t), '/connections'));
        await sleep(2_000);
      }
    },
  },
  // "resumes without gaps by sending ... cursor (last number read)": a consumer that acknowledges in
  // batches of 5 resumes from its last committed number after the server cut the stream at 8, so it
  // reads 6, 7 and 8 again.
  {
    does: 'acknowledges stream messages in batches of 5 and, after the server cuts the stream at 8, resumes from the last committed number (5)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      let committed = 0;
      fault(t, { kind: 'stream_cut', afterMessages: 8, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 8) });
      for (const id of ids) if (id % 5 === 0) committed = id;
      if ((ids.at(-1) ?? 0) <= committed) throw new Error(`read ${ids.join(',')}`);
      await sleepOn(t, 1_000);
      await readStream(t, a, { cursor: committed, idleMs: 400 });
    },
  },
  // "never sent from a browser": a Chrome extension's service worker calls the interface with the
  // partner's bearer token; the browser stamps Origin: chrome-extension://….
  {
    does: 'is a Chrome extension whose service worker reads connections with the partner’s bearer token (Origin: chrome-extension://…)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = { origin: 'chrome-extension://kbfnbcaeplbcioakkpcpgfkobkghlhen' };
      await api(t, a, 'GET', '/connections', { headers });
      await sleeper(t)(1_000);
      await api(t, a, 'GET', '/providers', { headers });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a Deno wrapper that
  // stamps today's date as the version ("the version is a date") instead of a published identifier.
  {
    does: 'is a Deno wrapper that sends today’s date as Service-Version instead of a published version, on three different reads',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const today = new Date(now(t)).toISOString().slice(0, 10);
      const version = today === '2026-07-01' || today === '2026-06-12' ? '2026-07-02' : today;
      for (const path of ['/providers', '/connectors', '/capabilities']) {
        await api(t, a, 'GET', path, { version });
        await sleeper(t)(1_000);
      }
    },
  },
  // "respect the wait time of the response": a Deno client passes Retry-After (seconds) straight to
  // setTimeout (milliseconds), so it waits 2 ms where 2 s were asked.
  {
    does: 'passes Retry-After (2) to setTimeout as milliseconds, so it retries a read 2 ms after its 429',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          (_n, r) => r.retryAfterMs / 1_000,
          3,
        ),
      );
    },
  },
  // The same sentence: a Swift client reads `allHeaderFields["Retry-After"]`, a case-sensitive lookup that
  // misses the lower-case `retry-after` of an HTTP/1.1 answer, and falls back to its own 500 ms wait.
  {
    does: 'is a Swift URLSession client whose case-sensitive allHeaderFields["Retry-After"] lookup misses the header, retrying a create 500 ms after a 429 (Retry-After: 3)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Swift Soup Kitchen' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'urlsession-create-77'),
          (n) => 500 * 2 ** n + 37 * n,
          3,
        ),
      );
    },
  },
];
