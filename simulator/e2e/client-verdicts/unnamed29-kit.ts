import { createHash } from 'node:crypto';
import { CURRENT_VERSION } from '../../contract/versions.ts';
import type { Target } from '../harness.ts';
import { silenceWatch } from './silence.ts';
import type { Auth, Reply } from './unnamed-kit.ts';

/**
 * Round 29 writes clients of stacks no earlier round used: the OpenTelemetry Go OTLP exporter's retry,
 * promise-retry, @slack/web-api's retry policies, Google's retry-request, grpc-go's connection backoff,
 * Temporal activity retry policies on creates, Celery's autoretry_for defaults, content-derived keys,
 * integrators holding one token (or one per tenant) for three tenants, sibling processes of one client.
 * Each schedule is written from the library's documentation (none is installed), with a seeded draw; it
 * gets the retry number (0 for the first retry) and returns ms.
 */

/**
 * OTel Go OTLP/HTTP exporter `RetryConfig` defaults (InitialInterval 5 s, MaxInterval 30 s, cenkalti
 * underneath: multiplier 1.5, randomization 0.5), waiting the greater of its backoff and a throttle
 * (Retry-After). Stateful: one per retry sequence.
 */
export function otlpExporter(random: () => number) {
  let interval = 5_000;
  return (_n: number, r: Reply) => {
    const drawn = Math.round(interval * (0.5 + random()));
    interval = Math.min(interval * 1.5, 30_000);
    return Math.max(drawn, r.retryAfterMs);
  };
}

/**
 * node-retry's timeout (under promise-retry and p-retry): `round(rand * minTimeout * factor^n)`, `rand` in
 * [1, 2) when `randomize`, else 1. promise-retry's defaults: factor 2, minTimeout 1 s, randomize false.
 */
export const nodeRetry =
  (o: { factor?: number; randomize: boolean }, random: () => number) =>
  (n: number): number =>
    Math.round((o.randomize ? 1 + random() : 1) * 1_000 * (o.factor ?? 2) ** n);

/** @slack/web-api `retryPolicies.tenRetriesInAboutThirtyMinutes` (its default): 10 retries, factor 1.96821, randomized. */
export const slackTenRetries = (random: () => number) => nodeRetry({ factor: 1.96821, randomize: true }, random);

/**
 * Google `retry-request` defaults (retries 2, retryDelayMultiplier 2, maxRetryDelay 64 s): `2^attempt s`
 * (attempt from 1) plus `floor(random * 1000)` ms; it retries 429 and 5xx and never reads Retry-After.
 */
export const retryRequest = (random: () => number) => (n: number) =>
  Math.min(1_000 * 2 ** (n + 1) + Math.floor(random() * 1_000), 64_000);

/**
 * grpc-go `backoff.DefaultConfig` (BaseDelay 1 s, Multiplier 1.6, Jitter 0.2, MaxDelay 120 s): the first
 * retry waits BaseDelay exactly, later ones `1 s * 1.6^n` moved by up to ±20 %.
 */
export const grpcBackoff = (random: () => number) => (n: number) =>
  n === 0 ? 1_000 : Math.round(Math.min(1_000 * 1.6 ** n, 120_000) * (1 + 0.2 * (random() * 2 - 1)));

/** A Temporal activity `RetryPolicy` (InitialInterval 1 s, BackoffCoefficient 2, MaximumInterval 100 s): no draw. */
export const temporalActivity = (n: number) => Math.min(1_000 * 2 ** n, 100_000);

/** Celery `autoretry_for` with nothing else set: `default_retry_delay` 180 s, every time, max_retries 3. */
export const celeryDefault = () => 180_000;

/** JSON with its keys sorted (what a client hashing "the request" serialises). */
const sortedJson = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(sortedJson).join(',')}]`
    : v && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);

/** A key derived from the request: sha256 of method, path, the sorted body and `extra` (empty unless given). */
export const contentKey = (method: string, path: string, body: object, extra = '') =>
  `ck-${createHash('sha256')
    .update(`${method} ${path}\n${sortedJson(body)}\n${extra}`)
    .digest('hex')
    .slice(0, 32)}`;

/** One stream message as a consumer sees it: its number and its `event:` name. */
export interface Seen {
  id: number;
  event: string;
}

/**
 * Reads the tenant's stream once from `cursor` (Last-Event-ID) until it ends or is quiet for `idleMs`,
 * keeping each message's number and event name (a consumer that handles some events and not others).
 */
export async function readTyped(
  t: Target,
  a: Auth,
  o: { cursor?: number; idleMs?: number; onOpen?: () => void } = {},
): Promise<Seen[]> {
  const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream`, {
    headers: {
      authorization: `Bearer ${a.token}`,
      'x-service-tenant': a.tenant,
      'service-version': CURRENT_VERSION,
      ...(o.cursor === undefined ? {} : { 'last-event-id': String(o.cursor) }),
    },
  });
  const reader = res.status === 200 ? res.body?.getReader() : undefined;
  if (!reader) throw new Error(`stream answered ${res.status}`);
  o.onOpen?.();
  const seen: Seen[] = [];
  const decoder = new TextDecoder();
  let text = '';
  const idle = silenceWatch(o.idleMs ?? 1_500, () => void reader.cancel().catch(() => undefined));
  for (;;) {
    idle.heard();
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
    if (done) break;
    text += decoder.decode(value, { stream: true });
    for (let cut = text.indexOf('\n\n'); cut !== -1; cut = text.indexOf('\n\n')) {
      const block = text.slice(0, cut);
      const id = /^id: (\d+)/m.exec(block)?.[1];
      if (id) seen.push({ id: Number(id), event: /^event: (.+)$/m.exec(block)?.[1] ?? '' });
      text = text.slice(cut + 2);
    }
  }
  idle.stop();
  await reader.cancel().catch(() => undefined);
  return seen;
}
