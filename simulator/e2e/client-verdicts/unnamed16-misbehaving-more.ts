import { api, auth, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { nimSample } from './unnamed16-kit.ts';

/**
 * Round 16, more misbehaving clients (tokens, browsers, streams, Service-Version, 4xx): each breaks one
 * duty and must fail exactly that rule, with evidence. The sentence broken is quoted above it.
 */
export const MISBEHAVING_MORE_16: FaultyClient[] = [
  // "Tokens are short-lived and are renewed, not extended": a PowerShell script calling
  // Get-MsalToken -ForceRefresh before every Invoke-RestMethod, so each call gets a new hour-long token.
  {
    does: 'is a PowerShell script calling Get-MsalToken -ForceRefresh before every Invoke-RestMethod (an hour-long token per call, 2 s apart)',
    fails: ['auth.token-reused'],
    async run(t) {
      const paths = [
        '/providers',
        '/connectors',
        '/capabilities',
        '/connections',
        '/providers?category=pos',
        '/connectors?capability=orders.read',
      ];
      for (const path of paths) {
        ok(path, await get(t, auth(t, undefined, 3_600), path));
        await sleeper(t)(2_000);
      }
    },
  },
  // "Tokens are short-lived and are renewed": an Ansible play fetching its token once in pre_tasks
  // (set_fact), whose later uri tasks run past its expiry with ignore_errors: true, each answered 401.
  {
    does: 'is an Ansible play setting its token once in pre_tasks, whose uri tasks run on past its expiry with ignore_errors, three reads 10 s apart answered 401',
    fails: ['auth.renewed-after-expiry'],
    async run(t) {
      const a = auth(t, undefined, 60);
      ok('first', await get(t, a, '/providers'));
      await t.sandbox.control.advanceClock(90);
      for (const path of ['/connectors', '/capabilities', '/connections']) {
        const r = await get(t, a, path);
        if (r.status !== 401) throw new Error(`${path} answered ${r.status}`);
        await sleeper(t)(10_000);
      }
    },
  },
  // "never sent from a browser": a SwiftWasm app in a browser calling fetch through JavaScriptKit with
  // the bearer token baked into its bundle; the browser adds Origin.
  {
    does: 'is a SwiftWasm app calling fetch through JavaScriptKit from a browser page with a bearer token (Origin sent by the browser)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = {
        origin: 'https://venues.swiftwasm.example',
        'sec-fetch-mode': 'cors',
        'sec-fetch-site': 'cross-site',
      };
      // The service may refuse the browser's call (403): the token has left the backend either way.
      await api(t, a, 'GET', '/connectors', { headers });
    },
  },
  // "resumes ... cursor (last number read)": a Nim consumer storing its position Kafka-style as the next
  // offset to read (last id + 1), and sending that as ?cursor=: the message after the last read is skipped.
  {
    does: 'is a Nim SSE consumer storing the next offset (last id + 1) Kafka-style and resuming with ?cursor= that offset',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last + 1, asQuery: true, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "resumes without gaps": a Tekton Task whose step keeps its last id in an emptyDir; the step's pod is
  // replaced after the stream ends (retries: 1), the emptyDir is gone, and the new pod reconnects with no cursor.
  {
    does: 'is a Tekton Task step keeping its last id in an emptyDir lost with the pod, its retry reconnecting 15 s later with no cursor',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      await sleeper(t)(15_000);
      await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier": a PowerShell script putting
  // `Get-Date '2026-07-01'` in its header table, which PowerShell turns into "07/01/2026 00:00:00".
  {
    does: 'is a PowerShell script whose -Headers @{ "Service-Version" = Get-Date "2026-07-01" } sends "07/01/2026 00:00:00"',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors']) {
        const r = await api(t, a, 'GET', path, { version: '07/01/2026 00:00:00' });
        if (r.status !== 400) throw new Error(`${path} answered ${r.status}`);
        await sleeper(t)(1_000);
      }
    },
  },
  // "retry only after rate_limited and internal": a Swift service on URLSession retrying whenever
  // `!(200..<300).contains(status)`, so a capability check of an unknown connector (404) goes three more times.
  {
    does: 'is a Swift URLSession service retrying any status outside 200..<300, so a capability check of an unknown connector (404) is sent three more times',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'no-such-swift-connector', capability: 'orders.read' };
      const send = () => api(t, a, 'POST', '/capabilities', { body });
      const r = await loop(sleeper(t), send, nimSample(seeded(1667)), 3, (x) => x.status < 200 || x.status >= 300);
      if (r.status !== 404) throw new Error(`answered ${r.status}`);
    },
  },
];
