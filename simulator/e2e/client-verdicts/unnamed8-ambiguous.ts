import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { sleepOn, type Target } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { seeded } from './unnamed4-kit.ts';
import { fleet, guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { ageS, signedBy } from './unnamed8-receivers.ts';

/**
 * Round 8, cases the interface does not decide: the rules' verdict today is stated (`judged`: the
 * rules failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export interface AmbiguousClient8 {
  does: string;
  why: string;
  judged: string[];
  options?: SandboxOptions;
  run(t: Target): Promise<unknown>;
}

export const AMBIGUOUS_8: AmbiguousClient8[] = [
  {
    does: 'makes the guidance’s four attempts of one read, then a scheduler runs the same read again 125 s after the last failure',
    why: '"A sample client makes up to 4 attempts": the fifth read comes after the 120 s a retry is looked for in; whether a scheduled re-run is the same operation the interface does not say',
    judged: [],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      await retrying(sleep, () => get(t, a, '/connectors'), guidanceWait(seeded(831)));
      await sleep(125_000);
      ok('the re-run', await get(t, a, '/connectors'));
    },
  },
  {
    does: 'waits out a create’s 429 (Retry-After: 5) with its key, but goes on reading other paths every 500 ms with the same token meanwhile',
    why: '"respect the wait time of the response": the interface names the wait for the retry, and rate limits per access; whether other calls of the same access must pause too is not said',
    judged: [],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 5, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Impatient Reader Inn' };
      await api(t, a, 'POST', '/connections', { body, key: 'wait-create-0001' });
      for (const path of ['/providers', '/connectors', '/capabilities', '/connections', '/providers?category=pos']) {
        await sleep(500);
        await get(t, a, path);
      }
      await sleep(2_600);
      ok('the create', await api(t, a, 'POST', '/connections', { body, key: 'wait-create-0001' }));
    },
  },
  {
    does: 'is cut after three messages and comes back 301 s later (just past five minutes) without a cursor',
    why: '"resumes without gaps": any reconnect without the last number leaves a gap; the rules look for a resume only within 5 minutes (round 7 stated the same at 6 minutes)',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      await sleeper(t)(301_000);
      await readStream(t, a, { count: 1, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  {
    does: 'is a receiver that acknowledges after its queue worker’s verdict, the worker checking the window 2.5 s after the delivery arrived',
    why: '"rejects the delivery when the difference between t and the current time exceeds 300 seconds": whose current time, arrival or verification, is not said; a delivery 301-302 s ahead is 298.5-299.5 s ahead when checked',
    judged: ['webhooks.receiver-verifies'],
    run: (t) =>
      checkReceiver(t, {
        delayMs: 2_500,
        verify: (raw, header, secret) => {
          const t0 = /t=(\d+)/.exec(header ?? '')?.[1] ?? '';
          return Math.abs(ageS(t0, Date.now() / 1000 + 2.5)) <= 300 && signedBy(raw, header, secret);
        },
      }),
  },
  {
    does: 'is a receiver that compares only the first 16 hex characters of the signature (a log-friendly prefix), in constant time, with the 300 s window',
    why: 'the interface asks for a constant-time compare of the signature; a 64-bit prefix forgery is out of reach of any black-box check, so the receiver check passes it',
    judged: [],
    run: (t) =>
      checkReceiver(t, {
        verify: (raw, header, secret) => {
          const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
          if (!m?.[1] || !m[2] || Math.abs(ageS(m[1], Date.now() / 1000)) > 300) return false;
          const want = createHmac('sha256', secret).update(`${m[1]}.`).update(raw).digest('hex').slice(0, 16);
          return timingSafeEqual(Buffer.from(m[2].slice(0, 16)), Buffer.from(want));
        },
      }),
  },
  {
    does: 'sends Last-Event-ID: evt-<last number> (its own event key) after a cut, is refused with 400, and, as EventSource does after a refusal, stops reading',
    why: '"resumes ... by sending Last-Event-ID or the query parameter cursor (last number read)": the reconnect carries no number and the client never resumes; the rules judge only reconnects that open a stream, and a refused one reads no gap',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      await sleepOn(t, 500);
      await readStream(t, a, { headers: { 'last-event-id': `evt-${ids.at(-1) ?? 0}` } });
    },
  },
  {
    does: 'fans out eight capability checks and retries the three answered 500 after 400 ms plus a draw of up to 200 ms, drawing 23, 24 and 31 ms',
    why: '"slight random spread": the client draws, but three draws within 8 ms of one another cannot be told from none; with three retry sequences a uniform 0-250 ms draw read as no spread about 3 % of the time, so retry.spread now waits for four sequences (six comparisons: about 0.5 %) and judges none here',
    judged: [],
    async run(t) {
      const a = auth(t);
      const random = seeded(816);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 3 });
      const caps = [
        'orders.read',
        'orders.write',
        'payments.refund',
        'menu.read',
        'menu.write',
        'tables.read',
        'staff.read',
        'reports.read',
      ];
      await fleet(
        t,
        caps.map((capability) => async (sleep) => {
          const body = { connectorId: CONNECTION.connectorId, capability };
          await retrying(
            sleep,
            () => api(t, a, 'POST', '/capabilities', { body }),
            (n) => 400 * 2 ** n + Math.floor(random() * 200),
          );
        }),
        caps.map((_, i) => i * 20),
      );
    },
  },
];
