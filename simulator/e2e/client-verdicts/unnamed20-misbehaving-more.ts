import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 20, more misbehaving clients (tokens, streams, browsers, Service-Version): each must fail exactly
 * the rules it breaks, with evidence.
 */
export const MISBEHAVING_MORE_20: FaultyClient[] = [
  // "request a new access token ... Tokens are short-lived and are renewed, not extended": a Lambda with
  // SnapStart fetched its token in a static initialiser before the snapshot; every restored invocation
  // sends it, long expired, and logs the 401.
  {
    does: 'is a Java Lambda on SnapStart whose token was cached in a static field at snapshot time, sending it expired on five different reads 10 s apart',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 60);
      await sleeper(t)(90_000);
      for (const path of ['/providers', '/connectors', '/capabilities', '/connections', '/audit-log?limit=5']) {
        await get(t, a, path);
        await sleeper(t)(10_000);
      }
    },
  },
  // "Tokens are short-lived and are renewed": a Conductor worker whose task handler builds a new OAuth
  // client per task execution, so each task (every 3 s) fetches a fresh one-hour token.
  {
    does: 'is a Netflix Conductor worker fetching a new 1 h token in each task execution, eight tasks 3 s apart',
    fails: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 8; i++) {
        ok('read', await get(t, auth(t, undefined, 3_600), i % 2 ? '/connectors' : '/connections'));
        await sleeper(t)(3_000);
      }
    },
  },
  // "After an interruption, the client resumes without gaps by sending Last-Event-ID": a .NET 9 worker that
  // builds a fresh HttpRequestMessage on reconnect and forgets parser.LastEventId: it reads live only.
  {
    does: 'is a .NET 9 SseParser worker cut after 3 messages, reconnecting 1 s later without Last-Event-ID (new HttpRequestMessage)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length === 0) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "resumes ... (last number read)": a ReactPHP EventSource wrapper that stores the id of the first
  // message of each batch it handles, so it resumes from before messages it already read.
  {
    does: 'is a ReactPHP EventSource wrapper persisting the id of the first message of each batch, resuming from it after a cut (messages read again)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const first = ids[0];
      if (first === undefined || ids.length < 3) throw new Error(`read ${ids.length}`);
      await sleeper(t)(1_500);
      await readStream(t, a, { cursor: first, idleMs: 600, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  // "never sent from a browser": a SvelteKit universal load (+page.ts) runs in the browser on client-side
  // navigation and fetches the API with a token from $env/static/public.
  {
    does: 'is a SvelteKit universal load (+page.ts) fetching the connectors in the browser with a PUBLIC_NCS_TOKEN',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = {
        origin: 'https://venues.partner.example',
        referer: 'https://venues.partner.example/venues',
        'sec-fetch-mode': 'cors',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-dest': 'empty',
      };
      await api(t, a, 'GET', '/connectors', { headers });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a Kiota-generated client
  // whose HeadersInspection default sends Service-Version: v1 (the OpenAPI info.version it was generated from
  // as someone typed it), on three reads.
  {
    does: 'is a Kiota-generated client sending Service-Version: v1 on three different reads',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/capabilities']) {
        await api(t, a, 'GET', path, { version: 'v1' });
        await sleeper(t)(1_000);
      }
    },
  },
  // "The same key with different content yields idempotency_conflict ... content changed afterwards": a
  // Python worker builds capabilities from a set(); the Kubernetes Job's second pod (another
  // PYTHONHASHSEED) lists them in another order under the same key after the first pod's create got a
  // 500 after commit.
  {
    does: 'is a Python worker building capabilities from a set(), whose retry pod (another PYTHONHASHSEED) re-sends a committed create under its key with the capabilities reordered',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Hash Seed Hummus', capabilities: ['orders.read', 'payments.refund'] };
      const key = 'k8s-job-venue-sync-hash-seed-hummus';
      const first = await createWith(t, auth(t), body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(10_000);
      const again = { ...body, capabilities: ['payments.refund', 'orders.read'] };
      const second = await createWith(t, auth(t), again, key);
      if (second.status !== 409) throw new Error(`answered ${second.status}`);
    },
  },
];
