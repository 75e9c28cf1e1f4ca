import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { ReceiverKind } from './unnamed-receivers.ts';

/**
 * Round 30 receivers in PHP frameworks no earlier round used (Slim 4, CakePHP, Laminas on RoadRunner).
 * "The receiver compares in constant time and rejects the delivery when the difference between t and the
 * current time exceeds 300 seconds." Two pass by unusual means (PHP's `(int)` cast and hash_equals, a
 * window against the request's own start second); two fail by a slip that looks careful (a refusal written
 * as a 200 with an error body, a clock captured when a long-running worker booted).
 */
const fields = (h: string | undefined) => {
  let t = '';
  let v1 = '';
  for (const part of (h ?? '').split(',')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 't') t = rest.join('=');
    if (name === 'v1') v1 = rest.join('=');
  }
  return { t, v1 };
};
const hexMac = (secret: string, t: string, body: Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
/** PHP's `(int)` cast: the leading digits, 0 when there are none. */
const phpInt = (s: string) => Number(/^\s*\d+/.exec(s)?.[0] ?? 0);
/** PHP's hash_equals: false at once on other lengths (it says so), constant time otherwise. */
const hashEquals = (known: string, user: string) => {
  const a = Buffer.from(known);
  const b = Buffer.from(user);
  return a.length === b.length && timingSafeEqual(a, b);
};
const within = (now: number, t: string) => Math.abs(now - phpInt(t)) <= 300;

/** A Laminas worker under RoadRunner booted this long before the check: its clock service froze then. */
const BOOTED_S_AGO = 200;

export const RECEIVERS_30: ReceiverKind[] = [
  // Slim 4: `(string) $request->getBody()` (the raw stream), `(int) $t`, hash_equals on the hex text.
  {
    does: 'is a Slim 4 route reading (string) $request->getBody(), casting t with (int) and comparing hex with hash_equals, 300 s window',
    passes: true,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      return within(Math.floor(Date.now() / 1000), t) && hashEquals(hexMac(secret, t, raw), v1);
    },
  },
  // CakePHP: the window against `$_SERVER['REQUEST_TIME']` (the whole second the request began), and
  // `Security::constantEquals` on sha256 digests of both hex strings (no length leak).
  {
    does: 'is a CakePHP controller checking the window against REQUEST_TIME (the request’s start second) and comparing sha256 digests of both hex strings with Security::constantEquals',
    passes: true,
    verify: (raw, h, secret) => {
      const requestTime = Math.floor(Date.now() / 1000);
      const { t, v1 } = fields(h);
      const digest = (s: string) => createHash('sha256').update(s).digest();
      return within(requestTime, t) && timingSafeEqual(digest(hexMac(secret, t, raw)), digest(v1));
    },
  },
  // Slim 4: the refusal is `$response->withJson(['error' => 'invalid signature'])` without withStatus, so
  // every forged or stale delivery is answered 200 (the check itself is right).
  {
    does: 'is a Slim 4 route that verifies correctly but writes its refusal as withJson(["error" => ...]) without withStatus, answering 200',
    passes: false,
    verify: (raw, h, secret) => {
      const { t, v1 } = fields(h);
      const accepted = within(Math.floor(Date.now() / 1000), t) && hashEquals(hexMac(secret, t, raw), v1);
      // The status stays 200 whatever `accepted` says: only the body differs.
      return accepted || true;
    },
  },
  // Laminas under RoadRunner: a clock service built once per worker (`new DateTimeImmutable()` in its
  // factory) gives the boot time to every request, so the window slides behind by the worker's age.
  {
    does: 'is a Laminas handler under RoadRunner whose clock service was built when the worker booted (200 s before), so a delivery 301 s old is 101 s off its frozen clock',
    passes: false,
    verify: (raw, h, secret) => {
      const frozen = Math.floor(Date.now() / 1000) - BOOTED_S_AGO;
      const { t, v1 } = fields(h);
      return within(frozen, t) && hashEquals(hexMac(secret, t, raw), v1);
    },
  },
];
