import { createHmac } from 'node:crypto';
import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { ok, retrying } from './unnamed8-kit.ts';
import { ageS } from './unnamed8-receivers.ts';
import { activeJobPolynomialMs } from './unnamed9-kit.ts';

const sig = (h: string | undefined) => /^t=(\d+),v1=([0-9a-f]{64})$/.exec(h ?? '');

/**
 * Round 9, cases the interface does not decide (or no black-box check can see): the rules' verdict
 * today is stated (`judged`: the rules failed), not claimed right or wrong. A change of rule that
 * moves one must say why.
 */
export const AMBIGUOUS_9: AmbiguousClient8[] = [
  {
    does: 'is an SQS-fed Lambda without ReportBatchItemFailures: one create of a batch of three answers 500, so the whole batch comes back 30 s later to the same warm container and the two succeeded creates are sent again with their message-id keys',
    why: '"retry only after rate_limited and internal" against "the same key with the same content returns the same response again": the succeeded creates are sent again after a 200 (a repeat to the rules, as for one process), yet an at-least-once queue is what idempotency keys are for; the rules excuse such a redelivery only when another process (token) sends it',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const warm = auth(t, undefined, 3_600);
      const batch = ['Batch Bay Bagels', 'Batch Bay Bao', 'Batch Bay Burgers'].map((scopeLabel, i) => ({
        key: `sqs-msg-77d0-000${i}`,
        body: { ...CONNECTION, scopeLabel },
      }));
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const first = [];
      for (const m of batch) first.push((await api(t, warm, 'POST', '/connections', m)).status);
      if (first.join() !== '500,200,200') throw new Error(`answered ${first.join()}`);
      await sleeper(t)(30_000);
      for (const m of batch) ok(m.key, await api(t, warm, 'POST', '/connections', m));
    },
  },
  {
    does: 'is a GitHub Actions matrix of three legs started at once on three runners, each fetching a token and sending one create (its own venue, its own key), the three in flight together',
    why: '"Tokens are short-lived and are renewed, not extended": three runners each with a token is no churn, but three single calls with three tokens are what a process fetching a token per call at concurrency 3 looks like (round 2’s six workers); the rules see one token replacing the next (as round 5’s KEDA job per message)',
    judged: ['auth.token-reused'],
    async run(t) {
      const venues = ['north', 'south', 'east'];
      await Promise.all(
        venues.map((v) =>
          api(t, auth(t), 'POST', '/connections', {
            body: { ...CONNECTION, scopeLabel: `Single Call Leg ${v}` },
            key: `gha-880311-${v}`,
          }),
        ),
      );
    },
  },
  {
    does: 'pools one Idempotency-Key per batch whose three creates have the same content (three identical kiosks at one venue), so the service replays the first and only one connection exists',
    why: '"use a new key for each new operation": three operations under one key; with equal content they are, to any observer, one create and two repeats after its success, so the rule that fails is retry.only-after-failure, not idempotency.one-key-one-content',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Kiosk Row Food Hall' };
      for (let i = 0; i < 3; i++) {
        ok(`kiosk ${i}`, await api(t, a, 'POST', '/connections', { body, key: 'batch-kiosks-2026-11-27' }));
        await sleeper(t)(300);
      }
      if (t.sandbox.state.connections.count() !== 1) throw new Error('expected one connection');
    },
  },
  {
    does: 'reconnects after a cut with ?cursor= set to the last number read but a stale Last-Event-ID (its HTTP client’s default headers, set at start-up to 1), and the service reads the header',
    why: '"resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)": it sent both, disagreeing; which one wins is not shown. The service takes Last-Event-ID, so messages 2 and 3 are sent again',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      await sleepOn(t, 500);
      await readStream(t, a, {
        cursor: ids.at(-1) ?? 0,
        asQuery: true,
        headers: { 'last-event-id': '1' },
        idleMs: 500,
        onOpen: () => publish(t, a.tenant, 1),
      });
    },
  },
  {
    does: 'reconnects twice after a cut, 100 ms apart, both with the last number read (its reconnect timer fired twice), and reads the next messages on both streams',
    why: '"Every message carries a consecutive number and arrives exactly once" is the service’s promise; a client that resumes correctly twice reads each later message twice, which the interface neither forbids nor names',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const last = (await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) })).at(-1) ?? 0;
      await sleepOn(t, 500);
      let opened = 0;
      const both = () => ++opened === 2 && publish(t, a.tenant, 2);
      const one = readStream(t, a, { cursor: last, idleMs: 600, onOpen: both });
      await sleepOn(t, 100);
      await Promise.all([one, readStream(t, a, { cursor: last, idleMs: 600, onOpen: both })]);
    },
  },
  {
    does: 'is a browser extension whose declarativeNetRequest rule strips the Origin header from its calls, which carry a token and the browser’s Sec-Fetch-Site: cross-site, Sec-Fetch-Mode: cors',
    why: '"Access credentials ... are never sent from a browser": broken, and only a browser sends Sec-Fetch-Site (scripts cannot set it): since session 20 the rule counts that Fetch Metadata beside Origin and a preflight',
    judged: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = {
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'cors',
        'sec-fetch-dest': 'empty',
        'user-agent':
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
      };
      await api(t, a, 'GET', '/connections', { headers });
      await api(t, a, 'GET', '/providers', { headers });
    },
  },
  {
    does: 'fetches a token at once whenever its client secret changes: the secret is rotated 2 minutes into a run and the rotation rolled back 4 minutes later, both times with most of the token’s 15 minutes left, reading every 10 s',
    why: '"rotate the secret regularly" and "Tokens are short-lived and are renewed, not extended": a token stays valid after its secret is rotated, so fetching one per secret change is a choice, not a duty; two such early replacements within one run read as churn',
    judged: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 900);
      for (let s = 0; s < 600; s += 10) {
        if (s === 120 || s === 360) a = auth(t, undefined, 900);
        ok('read', await api(t, a, 'GET', '/connections'));
        await sleep(10_000);
      }
    },
  },
  {
    does: 'is a Rails ActiveJob with retry_on on its defaults but wait: :polynomially_longer (attempts 5: 3 s, 18 s, 83 s, then about 260 s), creating under the job’s key through four 500s',
    why: '"A sample client makes up to 4 attempts": five attempts of one create under one key, but the fifth comes more than 120 s after the fourth failed, beyond the window a retry is looked for in (as round 7’s Airflow task)',
    judged: [],
    async run(t) {
      const a = auth(t);
      const random = seeded(951);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Polynomial Pub' };
      ok(
        'the create',
        await retrying(
          sleeper(t),
          () => api(t, a, 'POST', '/connections', { body, key: 'activejob-2a9c61f0-sync' }),
          (n) => activeJobPolynomialMs(n + 1, random),
          { max: 4 },
        ),
      );
    },
  },
  {
    does: 'is a Ruby receiver comparing the signature with == (not a constant-time compare), with the 300 s window',
    why: '"The receiver compares in constant time": broken, but a timing difference of one string compare is out of reach of the receiver check (as round 6’s ===)',
    judged: [],
    run: (t) =>
      checkReceiver(t, {
        verify: (raw, header, secret) => {
          const m = sig(header);
          if (!m?.[1] || !m[2] || Math.abs(ageS(m[1], Date.now() / 1000)) > 300) return false;
          return m[2] === createHmac('sha256', secret).update(`${m[1]}.`).update(raw).digest('hex');
        },
      }),
  },
  {
    does: 'is a Flask receiver verifying over request.get_data(as_text=True).strip(), with the 300 s window and a constant-time compare',
    why: '"over ... the unchanged raw request body": stripping changes a body with leading or trailing whitespace, but no delivery of the receiver check has any (the spaced one is indented inside), so it passes',
    judged: [],
    run: (t) =>
      checkReceiver(t, {
        verify: (raw, header, secret) => {
          const m = sig(header);
          if (!m?.[1] || !m[2] || Math.abs(ageS(m[1], Date.now() / 1000)) > 300) return false;
          const want = createHmac('sha256', secret)
            .update(`${m[1]}.${raw.toString('utf8').trim()}`)
            .digest('hex');
          return want === m[2];
        },
      }),
  },
];
