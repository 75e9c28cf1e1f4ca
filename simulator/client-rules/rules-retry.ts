import { ROUTES } from '../contract/route-table.ts';
import { findChains, type Link, RETRY_WINDOW_MS, RETRYABLE } from './attempts.ts';
import type { ClientBucket } from './observation.ts';
import { tokenSpans } from './processes.ts';
import { type ClientRule, type Evidence, evidence, verdict } from './rule.ts';
import { firstCall, growingWaits, RETRY_AFTER_SLACK_MS, spreadWaits } from './rules-waits.ts';

export { RETRY_AFTER_SLACK_MS };
/** Attempts in a row the interface's guidance makes at most. */
export const GUIDANCE_ATTEMPTS = 4;

const chainsOf = (buckets: readonly ClientBucket[]) => buckets.flatMap((b) => findChains(b));
const ids = (l: Link) => [l.prev.requestId, l.next.requestId];
export const onlyAfterFailure: ClientRule = {
  id: 'retry.only-after-failure',
  severity: 'MUST',
  title: 'Retries only after 429, 500 or a transport failure',
  section: 'Errors',
  sentence: 'Retry guidance: retry only after rate_limited and internal.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const chain of chainsOf(buckets))
      for (const l of chain.links) {
        const e = (note: string) => evidence(chain.bucket, ids(l), l.prev.at, note);
        if (RETRYABLE.has(l.cause)) good.push(e(`retried after ${l.cause} (${l.prev.status || 'no answer'})`));
        else
          bad.push(
            e(
              `${l.next.method} ${l.next.path} repeated after ${l.prev.status} (${l.cause}), which is no reason to retry`,
            ),
          );
      }
    return verdict(bad, good, 'retries', 'no repeated call seen yet');
  },
};

export const sameKeyAndContent: ClientRule = {
  id: 'retry.same-key-and-content',
  severity: 'MUST',
  title: 'A retry of a modifying call reuses its Idempotency-Key and content',
  section: 'What the service does',
  sentence:
    'Modifying calls are repeat-safe through idempotency keys: the same key with the same content returns the same response again.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const chain of chainsOf(buckets)) {
      // Creates at the cadence of earlier successful ones, a key each: a series of new operations.
      if (chain.polling) continue;
      for (const l of chain.links) {
        // Modifying: the route requires an Idempotency-Key (a capability check is a POST that changes nothing).
        if (!l.next.modifying || !RETRYABLE.has(l.cause)) continue;
        const e = (note: string) => evidence(chain.bucket, ids(l), l.prev.at, note);
        if (l.sameKey) good.push(e(`retry after ${l.cause} with the same key`));
        else
          bad.push(
            e(
              l.next.key === undefined
                ? `retry after ${l.cause} without an Idempotency-Key: the first call may have been committed`
                : `retry after ${l.cause} with a new Idempotency-Key (${l.prev.key ?? 'none'} -> ${l.next.key}): a second operation`,
            ),
          );
      }
    }
    return verdict(bad, good, 'retries of modifying calls', 'no retry of a modifying call seen yet');
  },
};

export const respectsRetryAfter: ClientRule = {
  id: 'retry.respects-retry-after',
  severity: 'MUST',
  title: 'After a 429, the next attempt waits at least Retry-After',
  section: 'Errors',
  sentence: 'respect the wait time of the response, retry with growing intervals',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const chain of chainsOf(buckets))
      for (const l of chain.links) {
        if (l.prev.status !== 429 || l.prev.retryAfterMs === undefined || l.waitMs === undefined) continue;
        const waitMs = l.waitMs;
        const e = (note: string) => evidence(chain.bucket, ids(l), l.prev.at, note, [waitMs]);
        if (l.waitMs >= l.prev.retryAfterMs - RETRY_AFTER_SLACK_MS)
          good.push(e(`waited ${Math.round(l.waitMs)} ms, Retry-After ${l.prev.retryAfterMs / 1000} s`));
        else bad.push(e(`waited ${Math.round(l.waitMs)} ms although Retry-After said ${l.prev.retryAfterMs / 1000} s`));
      }
    for (const b of buckets) for (const r of streamReconnectsAfter429(b)) (r.kept ? good : bad).push(r.evidence);
    return verdict(bad, good, 'retries after a 429', 'no retry after a 429 with Retry-After seen yet');
  },
};

const STREAM_PATH = ROUTES.find((r) => r.kind === 'sse')?.path;

/**
 * A stream call refused 429 and the stream the client opened next: an accepted stream is a stream record,
 * not a call, so no chain links the two. The next stream opened in the bucket after the refusal's answer
 * (within the retry window, none of the bucket's streams open beside it: a second consumer is not a
 * retry; streams of another process, a token in use at the same time, left out) is the reconnect, and owes
 * the refusal's Retry-After like any retry.
 * @example streamReconnectsAfter429(bucket) // [{ kept: false, evidence: … 'reconnected after 100 ms …' }]
 */
export function streamReconnectsAfter429(b: ClientBucket): { kept: boolean; evidence: Evidence }[] {
  if (!STREAM_PATH || b.streams.size === 0) return [];
  const calls = b.calls.slice();
  const spans = tokenSpans(calls, b.streams.slice());
  const out: { kept: boolean; evidence: Evidence }[] = [];
  for (const call of calls) {
    if (call.path !== STREAM_PATH || call.status !== 429 || call.retryAfterMs === undefined) continue;
    const refusedAt = call.answeredAt;
    // Another process of the client (its own token in use at the same time) owes nothing for this 429.
    const streams = b.streams
      .slice()
      .filter((s) => !spans.apart(call, s))
      .sort((x, y) => x.at - y.at);
    const next = streams.find((s) => s.at > refusedAt);
    if (!next || next.at - refusedAt > RETRY_WINDOW_MS) continue;
    const beside = streams.some((s) => s !== next && s.at < next.at && (s.endedAt === 0 || s.endedAt > refusedAt));
    // A stream call refused again in between is the chain's own retry, judged above.
    const refusedAgain = calls.some((c) => c !== call && c.path === STREAM_PATH && c.at > refusedAt && c.at < next.at);
    if (beside || refusedAgain) continue;
    const waitMs = next.at - refusedAt;
    const kept = waitMs >= call.retryAfterMs - RETRY_AFTER_SLACK_MS;
    out.push({
      kept,
      evidence: evidence(
        b,
        [call.requestId, next.requestId],
        call.at,
        kept
          ? `stream reopened ${Math.round(waitMs)} ms after a 429, Retry-After ${call.retryAfterMs / 1000} s`
          : `stream reopened ${Math.round(waitMs)} ms after a 429 although Retry-After said ${call.retryAfterMs / 1000} s`,
        [waitMs],
      ),
    });
  }
  return out;
}

export const attemptLimit: ClientRule = {
  id: 'retry.attempt-limit',
  severity: 'SHOULD',
  title: `At most ${GUIDANCE_ATTEMPTS} attempts of one operation in a row`,
  section: 'Errors',
  sentence:
    'A sample client makes up to 4 attempts and doubles the wait (500 ms times 2 to the power of the attempt number) plus a random amount up to 250 ms.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const chain of chainsOf(buckets)) {
      if (chain.polling) continue; // a poll kept through failures at its cadence is not a retry sequence
      // Repeats after answers that allow no retry (a 4xx) are retry.only-after-failure's, not a retry sequence.
      if (!chain.links.some((l) => RETRYABLE.has(l.cause))) continue;
      const e = (note: string) =>
        evidence(
          chain.bucket,
          chain.calls.map((c) => c.requestId),
          firstCall(chain).at,
          note,
          chain.links.flatMap((l) => (l.waitMs === undefined ? [] : [l.waitMs])),
        );
      if (chain.calls.length > GUIDANCE_ATTEMPTS) bad.push(e(`${chain.calls.length} attempts of one operation`));
      else good.push(e(`${chain.calls.length} attempts`));
    }
    return verdict(bad, good, 'retry sequences', 'no retry sequence seen yet');
  },
};

/** The retry duties, in report order. */
export const RETRY_RULES: readonly ClientRule[] = [
  onlyAfterFailure,
  sameKeyAndContent,
  respectsRetryAfter,
  growingWaits,
  spreadWaits,
  attemptLimit,
];
