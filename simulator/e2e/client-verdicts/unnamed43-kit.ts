import { createHash } from 'node:crypto';
import type { Target } from '../harness.ts';
import { type Auth, api, CONNECTION, publish, type Reply, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { as, TENANTS } from './unnamed30-kit.ts';

/**
 * Round 43 goes where the duties interact rather than to new languages: a 429 met right after a token
 * renewal, keys derived from the content (canonical or raw bytes), keys minted by POST /idempotency-keys,
 * sibling pods taking over a dead pod's create, per-tenant token caches, a jitter seeded from the URL.
 * Stacks no earlier round named: RestSharp with an OAuth2 authenticator, KrakenD's backend retry
 * (`backoff_strategy`), Microsoft.Extensions.Http.Resilience's standard handler with its defaults, Temporal's
 * DEFAULT activity retry policy. Each schedule is written from the documentation (none is installed), with a
 * seeded draw where it draws; it gets the retry number (0 for the first retry) and returns ms.
 */

/** FNV-1a of a string: the seed a client takes from its request URL. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 0x01000193) >>> 0;
  return h;
}

/**
 * A Deno client seeding its jitter from the request URL ("reproducible retries in tests"): the guidance's
 * `500 * 2^n` plus `fnv1a(url) % 250` ms. It grows, but the same URL always draws the same jitter.
 */
export const urlSeededJitter = (url: string) => (n: number) => 500 * 2 ** n + (fnv1a(url) % 250);

/** KrakenD `backoff_strategy: "exponential-jitter"`: `2^n` s (n from 0) moved by a draw (here up to ±33 %). */
export const krakendExponentialJitter = (random: () => number) => (n: number) =>
  Math.round(1_000 * 2 ** n * (1 + (random() * 2 - 1) * 0.33));

/** KrakenD `backoff_strategy: "fallback"`: a constant 1 s before every retry, no growth, no draw. */
export const krakendFallback = () => 1_000;

/**
 * Temporal's DEFAULT activity retry policy: InitialInterval 1 s, BackoffCoefficient 2, MaximumInterval 100 s,
 * MaximumAttempts 0 (unlimited): no jitter, no cap on the attempts.
 */
export const temporalDefault = (n: number) => Math.min(1_000 * 2 ** n, 100_000);

/** JSON with its object keys sorted at every level: the content as the service compares it. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

/** A key derived from the content: `op:` and the first 40 hex digits of sha256 of the text given. */
export const hashKey = (op: string, text: string) =>
  `${op}:${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;

/** The connection body with its fields in the reverse order (a serialiser rebuilding it from a map). */
export const reordered = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).reverse()) as Record<string, unknown>;

/** A key minted by `POST /idempotency-keys` for `operation`, or the run throws. */
export async function mintedKey(t: Target, a: Auth, operation = 'connection.create'): Promise<string> {
  const r = await api(t, a, 'POST', '/idempotency-keys', { body: { operation } });
  const key = r.json?.data?.idempotencyKey;
  if (r.status !== 200 || typeof key !== 'string') throw new Error(`idempotency-keys answered ${r.status}`);
  return key;
}

/**
 * Two sibling pods of one client (their own tokens) sharing a job table: pod A sends the create, gets a 500
 * after the commit and dies; pod B picks the job up `afterMs` later and sends it with `keyOf(B)`.
 */
export async function siblingTakeover(
  t: Target,
  o: { keyA: string; keyB: string; label: string; afterMs: number },
): Promise<Reply> {
  const body = { ...CONNECTION, scopeLabel: o.label };
  const podA = t.sandbox.issueToken();
  const podB = t.sandbox.issueToken();
  t.sandbox.control.addFault({ kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
  const first = await createWith(t, podA, body, o.keyA);
  if (first.status !== 500) throw new Error(`pod A answered ${first.status}`);
  await sleeper(t)(o.afterMs);
  return createWith(t, podB, body, o.keyB);
}

/**
 * A token expired during a pause: the read is refused 401, the client renews, and the read with the new token
 * meets a 429 (Retry-After 2 s); it then waits `waitAfter429(retryAfterMs)` and reads again.
 */
export async function renewalMeets429(t: Target, waitAfter429: (retryAfterMs: number) => number) {
  const sleep = sleeper(t);
  let a = t.sandbox.issueToken(undefined, 120);
  ok('first read', await api(t, a, 'GET', '/connectors'));
  await sleep(150_000);
  const refused = await api(t, a, 'GET', '/connectors');
  if (refused.status !== 401) throw new Error(`expired token answered ${refused.status}`);
  a = t.sandbox.issueToken(undefined, 600);
  t.sandbox.control.addFault({ kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
  const limited = await api(t, a, 'GET', '/connectors');
  if (limited.status !== 429) throw new Error(`renewed read answered ${limited.status}`);
  await sleep(waitAfter429(limited.retryAfterMs));
  ok('read after the 429', await api(t, a, 'GET', '/connectors'));
}

/**
 * An integrator (one token) reading two tenants' streams one after the other, cut after 2 and 3 messages;
 * 1 s later it resumes each from its checkpoint: one per tenant, or (`shared`) one per client, the number
 * written last (the second tenant's) then standing for both.
 */
export async function tenantStreams(t: Target, o: { shared: boolean }) {
  const [A, B] = TENANTS;
  const a = as(t, A, 600);
  const read = async (tenant: string, n: number) => {
    t.sandbox.control.addFault({ kind: 'stream_cut', afterMessages: n, count: 1, tenant });
    const ids = await readStream(t, { ...a, tenant }, { count: n, onOpen: () => publish(t, tenant, n) });
    if (ids.length !== n) throw new Error(`${tenant}: read ${ids.length} of ${n}`);
    return ids.at(-1) ?? 0;
  };
  const lastA = await read(A, 2);
  const lastB = await read(B, 3);
  await sleeper(t)(1_000);
  await readStream(t, { ...a, tenant: A }, { cursor: o.shared ? lastB : lastA, idleMs: 400 });
  await readStream(t, { ...a, tenant: B }, { cursor: lastB, idleMs: 400 });
}
