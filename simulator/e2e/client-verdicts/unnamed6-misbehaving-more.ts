import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { pollyDecorrelatedJitterV2, seeded, uuid } from './unnamed4-kit.ts';
import { guidanceWait, retried, transient } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';

/**
 * Round 6, misbehaving, continued: how programs run (a warm serverless container, a stream consumer's
 * cursor, a Chrome extension) and resilience settings that break a duty without anyone noticing.
 */
export const MORE_MISBEHAVING_6: FaultyClient2[] = [
  // "Tokens are short-lived and are renewed, not extended.": the token is fetched in the handler, not
  // at module init, so a warm container busy with events 2-4 s apart fetches one per event.
  {
    does: 'is a serverless function whose handler (not its module init) fetches the token: a warm container handling events 2-4 s apart gets a new token per event',
    fails: ['auth.token-reused'],
    async run(t) {
      const random = seeded(641);
      for (let event = 0; event < 6; event++) {
        const perEvent = auth(t);
        await api(t, perEvent, 'GET', '/connectors?capability=orders.read');
        const body = { ...CONNECTION, scopeLabel: `Warm event ${event}` };
        await api(t, perEvent, 'POST', '/connections', { body, key: `sqs-msg-${uuid(random)}` });
        await sleepOn(t, 2_000 + Math.floor(random() * 2_000));
      }
    },
  },
  // "After an interruption, the client resumes without gaps by sending Last-Event-ID or the query
  // parameter cursor (last number read).": the consumer sends the number of messages read on the
  // current connection, which starts at 0 on each one: right after the first cut, wrong after the second.
  {
    does: 'sends as its cursor the count of messages read on the current connection (reset per connection): right after the first cut, messages read again after the second',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      let readHere = 0;
      for (const n of [3, 2]) {
        fault(t, { kind: 'stream_cut', afterMessages: n, count: 1, tenant: a.tenant });
        const from = readHere === 0 ? {} : { cursor: readHere };
        const ids = await readStream(t, a, { ...from, idleMs: 1_500, onOpen: () => publish(t, a.tenant, n) });
        readHere = ids.length;
        await sleepOn(t, 300);
      }
      await readStream(t, a, { cursor: readHere, idleMs: 400 });
    },
  },
  // "respect the wait time of the response": a Polly v8 retry with MaxDelay 5 s and a DelayGenerator
  // reading Retry-After: MaxDelay caps every delay, the server's too, so a Retry-After: 20 is cut to 5 s.
  {
    does: 'is a Polly v8 retry whose DelayGenerator returns Retry-After but whose MaxDelay (5 s) caps it: a 429 with Retry-After: 20 is retried after 5 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const polly = pollyDecorrelatedJitterV2(500, seeded(642));
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 20, count: 1 });
      await retried(
        sleeper(t),
        () => api(t, a, 'GET', '/connections'),
        (n, x) => (transient(x) ? Math.min(5_000, x.retryAfterMs || polly(n + 1)) : undefined),
      );
    },
  },
  // "A sample client makes up to 4 attempts": a retry budget that counts only 5xx (429s are "free",
  // waited out per Retry-After): two 429s and three 500s make six attempts of one read.
  {
    does: 'counts only 5xx against its budget of 3 retries (429s are waited out for free): two 429s and three 500s make six attempts of one read',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(643);
      const wait = guidanceWait(random);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 2 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      let r = await api(t, a, 'GET', '/connectors');
      for (let serverErrors = 0; transient(r) && serverErrors <= 3; ) {
        if (r.status === 429) await sleep(r.retryAfterMs + Math.floor(random() * 250));
        else {
          if (serverErrors === 3) break;
          await sleep(wait(serverErrors++));
        }
        r = await api(t, a, 'GET', '/connectors');
      }
      if (r.status !== 200) throw new Error(`the read ended with ${r.status}`);
    },
  },
  // "The interface is called from servers only ... never sent from a browser.": a Chrome extension's
  // background service worker keeps the token in chrome.storage and calls the interface with it; the
  // browser adds Origin: chrome-extension://<id>.
  {
    does: 'is a Chrome extension whose background service worker calls the interface with a token kept in chrome.storage (Origin chrome-extension://…)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      const headers = { origin: 'chrome-extension://hkgfoiooedgoejojocmhlaklaeopbecg' };
      await api(t, a, 'GET', '/connections', { headers });
      await sleepOn(t, 30_000);
      await api(t, a, 'GET', '/connectors', { headers });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier." (published: 2026-07-01,
  // 2026-06-12): a Terraform-style provider configured with service_version = "latest" sends that
  // word; every call is refused and none is retried.
  {
    does: 'is an infrastructure-as-code provider configured with service_version = "latest", sending that word on every call (each refused, none retried)',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/capabilities']) {
        await api(t, a, 'GET', path, { version: 'latest' });
        await sleepOn(t, 1_000);
      }
    },
  },
];
