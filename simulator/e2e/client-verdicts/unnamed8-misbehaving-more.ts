import { CURRENT_VERSION } from '../../contract/versions.ts';
import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';

/**
 * Round 8, misbehaving: credentials, versions and streams, several with webhooks or a second process
 * beside them. Each must fail exactly the rules named, with evidence.
 */
export const MISBEHAVING_MORE_8: FaultyClient[] = [
  // "Access credentials ... are never sent from a browser.": an Electron app whose renderer (a file://
  // page) calls the service with the token; Chromium sends `Origin: null` from a file:// page.
  {
    does: 'is an Electron desktop app whose renderer process (a file:// page, Origin: null) calls the service with a token kept in localStorage',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { headers: { origin: 'null' } });
      await api(t, a, 'GET', '/providers', { headers: { origin: 'null' } });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier.": a generated client
  // that puts the version in a query parameter instead (its OpenAPI generator's `apiVersion` option).
  {
    does: 'is a generated SDK that sends the version as ?service-version=2026-07-01 on every call, never as a header',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const q = `service-version=${CURRENT_VERSION}`;
      await api(t, a, 'GET', `/providers?${q}`, { version: null });
      await api(t, a, 'GET', `/connections?${q}`, { version: null });
      const body = { ...CONNECTION, scopeLabel: 'Query String Bistro' };
      await api(t, a, 'POST', `/connections?${q}`, { body, key: 'qs-version-create-01', version: null });
    },
  },
  // The same sentence: a client that serialises the version as a date-time ("2026-07-01T00:00:00Z"),
  // which is not the published identifier; every call is refused and none retried.
  {
    does: 'serialises its configured version as an ISO date-time (Service-Version: 2026-07-01T00:00:00Z) on every call',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const version = `${CURRENT_VERSION}T00:00:00Z`;
      await api(t, a, 'GET', '/providers', { version });
      await sleepOn(t, 2_000);
      await api(t, a, 'GET', '/capabilities', { version });
    },
  },
  // "resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)":
  // a wrapper that keeps each message under its own event key ("evt-7") sends that as Last-Event-ID;
  // the service refuses it (400), and the wrapper falls back to a fresh EventSource without any id.
  {
    does: 'sends Last-Event-ID: evt-<last number> (its own event key) after a cut, is refused with 400, and falls back to a fresh stream without any cursor',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      await sleepOn(t, 500);
      let refused = 0;
      await readStream(t, a, {
        headers: { 'last-event-id': `evt-${ids.at(-1) ?? 0}` },
        onRefused: (s) => (refused = s),
      });
      if (refused !== 400) throw new Error(`the evt- id answered ${refused}`);
      await sleepOn(t, 1_000);
      await readStream(t, a, { idleMs: 400 });
    },
  },
  // Streams and webhooks together: a service that, whenever a webhook tells it something changed,
  // re-reads the stream "to catch up" from 0 instead of from its last number.
  {
    does: 'reads the stream and, on each webhook notification, closes it and reopens it from cursor 0 to catch up, three times a minute apart',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 3; i++) {
        const o = { done: false };
        const reading = readStream(t, a, {
          ...(i === 0 ? {} : { cursor: 0 }),
          count: 2 * (i + 1),
          onOpen: () => {
            if (!o.done) publish(t, a.tenant, 2);
            o.done = true;
          },
        });
        await reading;
        await sleepOn(t, 60_000);
      }
    },
  },
  // "retry only after rate_limited and internal" and "Tokens are ... renewed, not extended": a client
  // that takes every 403 (tenant not released) for a stale token, fetches a new one and sends the same
  // read again; the new token changes nothing the 403 was about, and each replaces one with most of its
  // life left.
  {
    does: 'gets 403 for a tenant its client is not released for and sends the same read again twice, each time with a freshly fetched token',
    fails: ['auth.token-reused', 'retry.only-after-failure'],
    async run(t) {
      const sleep = sleeper(t);
      const a = auth(t);
      const foreign = { ...a, tenant: 'not-released-tenant' };
      await api(t, foreign, 'GET', '/connections');
      await sleep(1_000);
      await api(t, { ...auth(t), tenant: foreign.tenant }, 'GET', '/connections');
      await sleep(2_000);
      await api(t, { ...auth(t), tenant: foreign.tenant }, 'GET', '/connections');
    },
  },
];
