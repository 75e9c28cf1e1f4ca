import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { CURRENT_VERSION } from '../../contract/versions.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { MISBEHAVING_36_EDGES } from './unnamed36-edges.ts';
import { MISBEHAVING_36_TENANTS } from './unnamed36-tenants.ts';

/**
 * Round 36, more misbehaving clients: a PWA's service worker opening the stream with ?access_token=, a
 * Hystrix fallback that re-sends under a key of its own, a Babashka script taking a token per event at
 * spacings that never settle, two leaders after a split brain, a Kinesis-fed Lambda stamping its request
 * id into the body, and an Angular interceptor retrying a 401 with the same token.
 */
export const MISBEHAVING_36_MORE: (FaultyClient & { options?: SandboxOptions })[] = [
  // "never sent from a browser": the page's service worker opens an EventSource, which sends no headers,
  // so the bearer token goes in ?access_token=; the browser adds Origin.
  {
    does: 'is a PWA whose service worker opens the event stream as new EventSource(url + "?access_token=" + token) (EventSource sends no headers; the browser adds Origin)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream?access_token=${a.token}`, {
        headers: {
          origin: 'https://orders.partner.example',
          'x-service-tenant': a.tenant,
          'service-version': CURRENT_VERSION,
        },
      });
      await res.body?.cancel().catch(() => undefined);
    },
  },
  // "the same key with the same content": the command gave up at 1 s; its getFallback() builds the create
  // again through the request builder, which mints a key: the committed create is sent under a new key.
  {
    does: 'is a Hystrix command giving up at its default 1 s timeout on a create the service committed but held, whose getFallback() re-sends it 500 ms later through a builder minting a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 10_000 });
      const body = { ...CONNECTION, scopeLabel: 'Fallback Fattoush' };
      const first = await api(t, a, 'POST', '/connections', { body, key: 'hystrix-a1', timeoutMs: 1_000 });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(500);
      ok('fallback', await createWith(t, a, body, 'hystrix-b2'));
    },
  },
  // "renewed, not extended": a Babashka script run per order event takes a 15-minute token every run;
  // the events come 21-36 s apart and never settle, but every two spacings in a row average under 30 s.
  {
    does: 'is a Babashka script run per order event taking a new 15-minute token each run, the events 22, 35, 24, 33, 21, 36, 23 and 34 s apart',
    fails: ['auth.token-reused'],
    async run(t) {
      const spacings = [22, 35, 24, 33, 21, 36, 23, 34];
      ok('read', await get(t, auth(t, undefined, 900), '/connectors'));
      for (const s of spacings) {
        await sleeper(t)(s * 1_000);
        ok('read', await get(t, auth(t, undefined, 900), '/connectors'));
      }
    },
  },
  // "resumes without gaps ... (last number read)": pod A is cut after seven and lives on; a split brain
  // elects two leaders, B and C, which both open the stream at once from the checkpoint written every five.
  {
    does: 'is a consumer pod cut after seven that lives on while a split brain elects two leaders (their own tokens) that both open the stream at once from the checkpoint written every five (5)',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 7, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 7) });
      if (ids.length !== 7) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(1_000);
      ok('pod A read', await get(t, a, '/connectors'));
      await sleeper(t)(1_000);
      const checkpoint = ids[4] ?? 0;
      await Promise.all([auth(t), auth(t)].map((p) => readStream(t, p, { cursor: checkpoint, idleMs: 400 })));
      ok('pod A read', await get(t, a, '/connectors'));
    },
  },
  // "same idempotency key with different content": the key is the Kinesis record's sequence number (stable
  // across Lambda's retries of the batch), but the body's scopeLabel carries context.awsRequestId.
  {
    does: 'is a Kinesis-fed Lambda keying its create by the record’s sequence number but writing context.awsRequestId into the scopeLabel, the batch retried by Lambda after a 500',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const key = 'seq-49590338271490256608559692538361571095921575989136588898';
      const label = (requestId: string) => ({ ...CONNECTION, scopeLabel: `Kinesis ${requestId}` });
      const first = await createWith(t, a, label('c6af9ac6'), key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_200);
      await createWith(t, a, label('0b1f72d4'), key);
    },
  },
  // "remedy: request a new access token": the Angular SSR interceptor pipes every call through
  // retry({ count: 2, delay: 3000 * 2 ** (n - 1) }), a 401 included: the expired token is sent twice more.
  {
    does: 'is an Angular SSR HttpClient whose interceptor retries every error, a 401 for its expired token included, with retry({ count: 2, delay: 3 s then 6 s }) and the same token',
    fails: ['auth.renewed-after-expiry', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 60);
      ok('read', await get(t, a, '/connectors'));
      await sleeper(t)(75_000);
      for (const wait of [3_000, 6_000]) {
        const r = await get(t, a, '/providers');
        if (r.status !== 401) throw new Error(`answered ${r.status}`);
        await sleeper(t)(wait);
      }
      await get(t, a, '/providers');
    },
  },
  ...MISBEHAVING_36_EDGES,
  ...MISBEHAVING_36_TENANTS,
];
