import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 13, more misbehaving clients: flow engines, keys, streams, versions and credentials. Each breaks
 * one duty and must fail exactly that rule (or the rules it breaks), with evidence.
 */
export const MISBEHAVING_MORE_13: FaultyClient[] = [
  // "Clients retry with growing intervals and slight random spread": Apache NiFi InvokeHTTP routes a 5xx
  // to Retry, and RetryFlowFile penalizes the FlowFile for the processor's fixed 30 s penalty duration.
  {
    does: 'is an Apache NiFi flow (InvokeHTTP to RetryFlowFile, fixed 30 s penalty, key from a FlowFile attribute) sending three creates each through two 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const n of [1, 2, 3]) {
        fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
        const body = { ...CONNECTION, scopeLabel: `NiFi Noodle Bar ${n}` };
        ok(
          `flowfile ${n}`,
          await loop(
            sleep,
            () => createWith(t, a, body, `nifi-ff-8e1d-000${n}`),
            () => 30_000,
            3,
          ),
        );
        await sleep(2_000);
      }
    },
  },
  // "use a new key for each new operation": a batch importer keys each create by the epoch second
  // (`import-${Math.floor(Date.now() / 1000)}`), so three venues created within one second share it.
  {
    does: 'keys each create of a batch import by the epoch second, so three different venues created within one second share one key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = `import-${Math.floor(t.sandbox.state.clock.now() / 1000)}`;
      const answers = [];
      for (const venue of ['Epoch Eatery', 'Second Street Cafe', 'Unix Udon'])
        answers.push((await createWith(t, a, { ...CONNECTION, scopeLabel: venue }, key)).status);
      if (answers[0] !== 200 || answers[1] !== 409) throw new Error(`answered ${answers}`);
    },
  },
  // "resumes ... by sending Last-Event-ID or the query parameter cursor": an egress proxy whose header
  // allowlist drops Last-Event-ID, so the consumer's reconnect after a cut reaches the service without it.
  {
    does: 'sits behind an egress proxy whose header allowlist drops Last-Event-ID, so its reconnect after a cut carries no position',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 800, onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length !== 3) throw new Error(`read ${ids}`);
      await sleepOn(t, 1_000);
      // The consumer set Last-Event-ID: 3; the proxy removed it on the way.
      await readStream(t, a, { idleMs: 400, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a GitHub Actions step that
  // builds the version with `date -d 2026-07-01 +%Y-%-m-%-d`, sending 2026-7-1.
  {
    does: 'is a GitHub Actions step building Service-Version with date +%Y-%-m-%-d, so it sends 2026-7-1 on its calls',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connectors', { version: '2026-7-1' });
      await api(t, a, 'GET', '/capabilities', { version: '2026-7-1' });
    },
  },
  // "Access credentials stay in the partner's backend and are never sent from a browser": an Office
  // add-in's task pane (a browser iframe) calls the interface with a bearer token it got from its backend.
  {
    does: 'is an Office add-in task pane (a browser iframe, Origin https://localhost:3000) calling GET /connections with a bearer token from its backend',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = {
        origin: 'https://localhost:3000',
        'sec-fetch-mode': 'cors',
        'sec-fetch-site': 'cross-site',
        'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Microsoft Edge WebView2',
      };
      await api(t, a, 'GET', '/connections', { headers });
    },
  },
  // "Tokens are short-lived and are renewed": a PHP-FPM application with no token cache (shared-nothing)
  // fetches a new hour-long token in every web request, two calls per request, a request every 2 s.
  {
    does: 'is a PHP-FPM app without a token cache fetching a new hour-long token in every web request (two calls each, a request every 2 s)',
    fails: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      for (let i = 0; i < 8; i++) {
        const a = auth(t, undefined, 3_600);
        ok('list', await get(t, a, '/connections'));
        ok('catalog', await get(t, a, i % 2 ? '/connectors' : '/capabilities'));
        await sleep(2_000);
      }
    },
  },
  // "Retry-After (recommended wait in seconds)": a Zig std.http.Client loop that parses Retry-After with
  // std.fmt.parseInt into a value it treats as milliseconds, so "3" becomes 3 ms.
  {
    does: 'is a Zig std.http.Client loop that reads Retry-After as milliseconds, so a 429 with Retry-After: 3 is retried after 3 ms plus its 100 ms floor',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          (_, r) => 100 + r.retryAfterMs / 1_000,
          3,
        ),
      );
    },
  },
];
