import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { checkOn, PRODUCTION_REFUND, refused, venue } from './unnamed45-kit.ts';
import {
  curlRetry,
  goRetryable,
  guzzleExponential,
  issuedKey,
  reqwestRetryFull,
  resilience4jDefault,
  springRetryDefault,
  urllib3Backoff,
  wgetWaitRetry,
} from './unnamed48-kit.ts';

/**
 * Round 48, misbehaving clients: retry middleware doing what its defaults (or the configuration teams commonly
 * give it) really do: urllib3 told not to respect Retry-After, go-retryablehttp's five attempts, Resilience4j and
 * Spring Retry retrying every exception (a 400 among them; a key minted inside the retried method), faraday-retry's
 * interval of 0, reqwest-retry's policy that never sees Retry-After, Guzzle's exponentialDelay, curl's
 * --retry-all-errors and --retry-delay, wget's twenty tries and its linear waits without spread. Each must fail
 * exactly the rule(s) it breaks.
 */
export const MISBEHAVING_48: (FaultyClient & { options?: SandboxOptions })[] = [
  // "respect the wait time of the response": respect_retry_after_header=False leaves urllib3's own backoff, and
  // its first retry comes at once.
  {
    does: 'is a requests Session with Retry(total=3, backoff_factor=0.5, status_forcelist=[429, 500, 502, 503, 504], respect_retry_after_header=False) whose GET /connections meets a 429 with Retry-After 3: urllib3 resends at once',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 3, count: 1 });
      const wait = urllib3Backoff(0.5, 0, seeded(4851), false);
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), wait, 3));
    },
  },
  // "A sample client makes up to 4 attempts": go-retryablehttp's RetryMax 4 is five attempts.
  {
    does: 'is a go-retryablehttp NewClient() on its defaults (RetryMax 4) whose create, under one Idempotency-Key, meets four 500s: five attempts, 1, 2, 4 and 8 s apart',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = venue('Retryablehttp Five Tries Diner');
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'grh-five-8e3a1d'), goRetryable, 4));
    },
  },
  // "retry only after rate_limited and internal": RetryConfig.ofDefaults() retries every exception, and RestClient
  // throws HttpClientErrorException.BadRequest for the 400.
  {
    does: 'is a Resilience4j Retry.ofDefaults() (3 attempts, 500 ms, every exception) around a RestClient capability check sent with environment "staging" from a misread profile: the 400 invalid_request is sent twice more, unchanged',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const check = () => checkOn(t, a, 'tillcraft-pos-cloud', 'orders.read', 'staging');
      const r = await loop(sleeper(t), check, resilience4jDefault, 2, (x) => x.status !== 200);
      refused('check', r, 400);
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys" and "Clients retry with growing intervals": the
  // retried method asks POST /idempotency-keys for its key first, so each attempt is under a new one, 1 s apart.
  {
    does: 'is a Spring @Retryable method with no arguments to the annotation (3 attempts, 1 s fixed, every exception) that first takes a key from POST /idempotency-keys and then creates: through two 500s, each attempt goes out under a new key, 1 s after the last',
    fails: ['retry.growing-waits', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = venue('Spring Default Retryable Cafe');
      const method = async () => createWith(t, a, body, await issuedKey(t, a));
      ok('create', await loop(sleeper(t), method, springRetryDefault, 2));
    },
  },
  // "Clients retry with growing intervals": faraday-retry's default interval is 0, so with retry_statuses set it
  // retries at once, twice (max 2).
  {
    does: 'is a Faraday connection with request :retry, retry_statuses: [500, 502, 503] and otherwise default options (max 2, interval 0): GET /connectors through two 500s is resent at once, twice',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 2 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connectors'),
          () => 0,
          2,
        ),
      );
    },
  },
  // "respect the wait time of the response": reqwest-retry's RetryPolicy decides the wait without the response.
  {
    does: 'is a reqwest-middleware client with RetryTransientMiddleware (ExponentialBackoff defaults, full jitter from 1 s) whose GET /providers meets a 429 with Retry-After 5: the policy, which never sees the response, waits its own draw under 1 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), reqwestRetryFull(seeded(4856)), 3));
    },
  },
  // "respect the wait time of the response": Middleware::retry with no delay function uses exponentialDelay.
  {
    does: 'is a Guzzle HandlerStack with Middleware::retry(decider retrying 429 and 5xx while $retries < 3) and no delay function: a capability check refused 429 with Retry-After 3 is sent again after exponentialDelay’s 1 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'checkCapability', retryAfterSeconds: 3, count: 1 });
      const check = () => checkOn(t, a, 'tillcraft-pos-cloud', 'orders.read');
      ok('check', await loop(sleeper(t), check, guzzleExponential, 3));
    },
  },
  // "retry only after rate_limited and internal": --retry-all-errors with --fail retries the 409 too.
  {
    does: 'is a CI step running curl --fail --retry 3 --retry-all-errors -H "Idempotency-Key: $KEY" to create a production connection refused 409 capability_denied: curl sends it three more times, 1, 2 and 4 s apart',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const all = (r: { status: number }) => r.status !== 200;
      const send = () => createWith(t, a, PRODUCTION_REFUND, 'ci-prod-refund-48c1');
      refused('last', await loop(sleeper(t), send, curlRetry(), 3, all), 409, 'capability_denied');
    },
  },
  // "Clients retry with growing intervals": --retry-delay fixes every wait and disables curl's doubling.
  {
    does: 'is a health probe running curl --retry 3 --retry-delay 2 on GET /providers through three 500s: three waits of exactly 2 s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), curlRetry({ retryDelayS: 2 }), 3));
    },
  },
  // "A sample client makes up to 4 attempts": wget's default --tries is 20.
  {
    does: 'is a wget --retry-on-http-error=500,503 call on default --tries (20) reading GET /capabilities through six 500s: seven attempts, 1 s to 6 s apart',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 6 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), wgetWaitRetry, 19));
    },
  },
  // "Clients retry with growing intervals and slight random spread": wget's linear waits carry no draw.
  {
    does: 'is a cron script running wget --tries=3 on three reads whose connections each drop twice: every read waits exactly 1 s, then 2 s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'commit_then_fail', route, failWith: 'drop', count: 2 });
        ok(path, await loop(sleeper(t), () => api(t, a, 'GET', path), wgetWaitRetry, 2));
      }
    },
  },
];
