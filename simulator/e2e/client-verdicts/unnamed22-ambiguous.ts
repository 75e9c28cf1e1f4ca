import { createHmac, timingSafeEqual } from 'node:crypto';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

const parts = (h: string | undefined) =>
  Object.fromEntries((h ?? '').split(',').map((p) => p.trim().split('=') as [string, string])) as Record<
    string,
    string | undefined
  >;
const fresh = (t: string) => /^\d+$/.test(t) && Math.abs(Date.now() / 1000 - Number(t)) <= 300;

/**
 * Round 22, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_22: AmbiguousClient8[] = [
  {
    does: 'is a QStash-triggered route keying its create with Upstash-Message-Id, delivered three times through two 500s (QStash waits e^2.5 ≈ 12 s, then e^5 ≈ 148 s)',
    why: '"the same key with the same content returns the same response again": the key is kept, so nothing is doubled; the third delivery comes 148 s after the second answer, beyond the 120 s in which the rules look for a retry, so it reads as the same key sent again after a failure long past (an operation re-run), not as the third attempt of one sequence',
    judged: [],
    async run(t) {
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'QStash Quinoa Bowl' };
      const key = 'qstash-msg_2c8LmR7TqZ9kVxW1pJd4NfB6sYhG3aE0uCiO5rKbXn';
      for (const wait of [12_182, 148_413, 0]) {
        const r = await createWith(t, auth(t), body, key);
        if (r.status === 200) return;
        await sleeper(t)(wait);
      }
    },
  },
  {
    does: 'is a receiver comparing v1 case-insensitively (both lower-cased, constant time), in the 300 s window',
    why: '"written as lowercase hex. The receiver compares in constant time": the sender writes lowercase hex; a receiver lower-casing the header first accepts an upper-case copy of a genuine signature too, which forges nothing (it is the same value), so whether it breaks the duty to compare the lowercase hex is not said',
    judged: [],
    async run(t) {
      return checkReceiver(t, {
        verify: (raw, h, secret) => {
          const p = parts(h);
          const ts = p.t ?? '';
          const v1 = (p.v1 ?? '').toLowerCase();
          const mine = createHmac('sha256', secret).update(`${ts}.`).update(raw).digest('hex');
          return fresh(ts) && v1.length === mine.length && timingSafeEqual(Buffer.from(v1), Buffer.from(mine));
        },
      });
    },
  },
  {
    does: 'is a PHP receiver that runs utf8_encode() on the body (Latin-1 read as UTF-8) before the HMAC, constant time, 300 s window',
    why: '"over ... the unchanged raw request body": the receiver changes every byte above 0x7f, so a delivery whose payload carries non-ASCII text is refused; deliveries of plain ASCII verify, so the receiver check catches it only if one of its payloads carries such a character',
    judged: [],
    async run(t) {
      return checkReceiver(t, {
        verify: (raw, h, secret) => {
          const p = parts(h);
          const ts = p.t ?? '';
          const reencoded = Buffer.from(raw.toString('latin1'), 'utf8');
          const mine = createHmac('sha256', secret).update(`${ts}.`).update(reencoded).digest('hex');
          const v1 = p.v1 ?? '';
          return fresh(ts) && v1.length === mine.length && timingSafeEqual(Buffer.from(v1), Buffer.from(mine));
        },
      });
    },
  },
  {
    does: 'is a client resending a create refused 400 (scopeLabel of one letter) with the label corrected, under the same key',
    why: '"use a new key for each new operation" and "The same key with different content yields idempotency_conflict": the refused call changed nothing (the service kept no outcome for the key, and answers the corrected call 200), and the correction is arguably the same operation; whether a key sent with a request refused 400 is spent is not said',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'fix-and-resend-7f20c1d9';
      const bad = await createWith(t, a, { ...CONNECTION, scopeLabel: 'X' }, key);
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(2_000);
      await createWith(t, a, { ...CONNECTION, scopeLabel: 'Xochi Taqueria' }, key);
    },
  },
  {
    does: 'sits behind two layers that each add Service-Version (an SDK default and a mesh header rule), so three reads carry "2026-07-01, 2026-07-01"',
    why: '"Sample calls send a header Service-Version with the version identifier": the header comes twice with the same published identifier (joined into one list on the wire, as HTTP allows); the simulator answers it 400 and the rule finds no published version in it; whether such a list names a version the interface does not say ("Whether the header is mandatory and what happens with an unknown value: not shown")',
    judged: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/capabilities']) {
        await api(t, a, 'GET', path, { version: '2026-07-01, 2026-07-01' });
        await sleeper(t)(600);
      }
    },
  },
  {
    does: 'sleeps a 429’s Retry-After exactly when it is 0 s, twice in a row on one read (three attempts at once)',
    why: '"respect the wait time of the response, retry with growing intervals": the service gave a wait of 0 s and the client kept it, so the waits are the server\'s, not the client\'s; whether a client must still grow its own interval when told 0 is not said. The rules failed retry.growing-waits (0 ms, then 0 ms), although their README says a wait the server set (up to 50 ms beyond a Retry-After) is not judged; since session 21 a Retry-After of 0 is such a wait, and nothing fails',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 0, count: 2 });
      await loop(
        sleeper(t),
        () => get(t, a, '/connectors'),
        (_n, r) => r.retryAfterMs,
        3,
      );
    },
  },
  {
    does: 'is a Python job under @backoff.on_exception(backoff.fibo, max_tries=4, factor=0.5, jitter=None) reading through three 500s (0.5 s, 0.5 s, 1 s)',
    why: '"Clients retry with growing intervals": a Fibonacci schedule repeats its first interval (1, 1, 2, 3 ... times the factor) and grows from there; one equal pair of two is not "more than half" in the rules, so it passes, though its first two intervals do not grow',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      await loop(
        sleeper(t),
        () => get(t, a, '/providers'),
        (n) => [500, 500, 1_000][n] ?? 1_500,
        3,
      );
    },
  },
];
