import { createHmac } from 'node:crypto';
import type { Target } from '../harness.ts';
import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { now } from './unnamed10-kit.ts';

/**
 * Round 11, cases the interface does not decide: the rules' verdict today is stated (`judged`: the
 * rules failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_11: AmbiguousClient8[] = [
  {
    does: 'commits stream numbers in batches of 5, crashes after reading 8 (a burst of 5, then 2 s later a burst of 3) and, restarted, resumes from its last committed number (5)',
    why: '"resumes without gaps by sending ... cursor (last number read)": the process that read 6 to 8 died before committing them, so its successor never knew them; at-least-once after a crash is common practice, but the cursor is not the last number read by the client',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const ids = await readStream(t, a, {
        count: 8,
        onOpen: () =>
          void (async () => {
            publish(t, a.tenant, 5);
            await sleepOn(t, 2_000);
            publish(t, a.tenant, 3);
          })(),
      });
      if (ids.length !== 8) throw new Error(`read ${ids.join(',')}`);
      await sleepOn(t, 5_000);
      await readStream(t, a, { cursor: ids[4] ?? 0, idleMs: 400 });
    },
  },
  {
    does: 'renews its 10-minute token every 5 minutes exactly (half its lifetime left) while reading every 20 s for 20 minutes',
    why: '"Tokens are short-lived and are renewed, not extended": the rule counts churn when more than half the lifetime is left; exactly half sits on the bound, and the contract gives no number',
    judged: [],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 600);
      let renewAt = now(t) + 300_000;
      for (let i = 0; i < 60; i++) {
        if (now(t) >= renewAt) {
          a = auth(t, undefined, 600);
          renewAt += 300_000;
        }
        ok('read', await get(t, a, i % 2 ? '/connectors' : '/providers'));
        await sleep(20_000);
      }
    },
  },
  {
    does: 'is a serverless function whose warm container caches its hour-long token, invoked every 10 s; the platform replaces the container twice, each new one fetching a token 10 s after the old one’s last call',
    why: '"Tokens are short-lived and are renewed, not extended": the client caches as well as its platform lets it; a container replaced by the platform drops a token with most of its life left, which the rule reads as churn within one run of calls',
    judged: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      for (let container = 0; container < 3; container++) {
        const a = auth(t);
        for (let i = 0; i < 12; i++) {
          ok('read', await get(t, a, i % 2 ? '/connections' : '/providers'));
          await sleep(10_000);
        }
      }
    },
  },
  {
    does: 'is a receiver that checks the timestamp window correctly but compares the signatures with === (not constant time)',
    why: '"The receiver compares in constant time": a timing leak cannot be seen by a black-box check over the network, so the check can only judge what it observes',
    judged: [],
    run: (t) =>
      checkReceiver(t, {
        verify: (raw, h, secret) => {
          const m = /^t=(\d+),v1=([0-9a-f]+)$/.exec(h ?? '');
          if (!m?.[1] || Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false;
          const want = createHmac('sha256', secret).update(`${m[1]}.`).update(raw).digest('hex');
          return m[2] === want;
        },
      }),
  },
  {
    does: 'reconnects after a cut with Last-Event-ID set to the last number read and a stale ?cursor=0 left in its URL',
    why: '"resumes without gaps by sending Last-Event-ID or the query parameter cursor": which one wins when both are sent and differ is not said; the verdict follows the position the simulator reads',
    judged: [],
    run: conflictingCursors,
  },
  {
    does: 'is a Go server whose HTTP client stamps Origin: https://partner-backend.internal on every call (a CSRF middleware’s habit), with its server-held token',
    why: '"never sent from a browser": the token never leaves the backend, but an Origin header beside Authorization is what the rule (and the service, which answers 403) takes for a browser; the contract does not say how a browser is recognised',
    judged: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = { origin: 'https://partner-backend.internal' };
      // The service refuses it (403): it takes the Origin for a browser too.
      const r = await api(t, a, 'GET', '/providers', { headers });
      if (r.status !== 403) throw new Error(`answered ${r.status}`);
    },
  },
  {
    does: 'after a 429 (Retry-After: 5) on one read, leaves that read waiting the full 5 s but sends four other reads at once meanwhile',
    why: '"When exceeded, the service answers 429 with a wait time": whether the wait applies to the access as a whole or only to the refused call is not said; the rules judge the refused call’s repeat only',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      const first = await get(t, a, '/providers');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      for (const path of ['/connectors', '/capabilities', '/connections', '/providers?category=pos'])
        await get(t, a, path);
      await sleepOn(t, 5_100);
      ok('retry', await get(t, a, '/providers'));
    },
  },
  {
    does: 'after a create answered 500, looks it up in GET /connections, finds it absent, and creates it again under a new key 2 s later',
    why: '"Modifying calls are repeat-safe through idempotency keys": the lookup shows the first create did not happen, so a new key does no harm, yet the contract asks for the key on the retry and the rules cannot see what the lookup showed',
    judged: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Looked Up Larder' };
      const first = await api(t, a, 'POST', '/connections', { body, key: 'lookup-first-0001' });
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleepOn(t, 1_000);
      const list = ok('lookup', await get(t, a, '/connections'));
      const found = (list.json?.data?.connections ?? []).some(
        (c: { scopeLabel?: string }) => c.scopeLabel === body.scopeLabel,
      );
      if (found) throw new Error('the failed create was committed');
      await sleepOn(t, 1_000);
      ok('again', await api(t, a, 'POST', '/connections', { body, key: 'lookup-second-0002' }));
    },
  },
];

/** A stream read for the ambiguous case: Last-Event-ID and a conflicting ?cursor= on one reconnect. */
export async function conflictingCursors(t: Target) {
  const a = auth(t);
  fault(t, { kind: 'stream_cut', afterMessages: 4, count: 1 });
  const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 4) });
  await sleeper(t)(1_000);
  await readStream(t, a, {
    cursor: 0,
    asQuery: true,
    headers: { 'last-event-id': String(ids.at(-1) ?? 0) },
    idleMs: 400,
  });
}
