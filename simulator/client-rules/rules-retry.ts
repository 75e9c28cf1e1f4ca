import { type Chain, findChains, type Link, RETRYABLE } from './attempts.ts';
import type { ClientBucket } from './observation.ts';
import { type ClientRule, type Evidence, evidence, verdict } from './rule.ts';
import { must } from '../lib/invariant.ts';

const MODIFYING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Timer slack: a wait this much shorter than Retry-After still counts as respecting it. */
export const RETRY_AFTER_SLACK_MS = 10;
/** A wait within this of the server's Retry-After was set by the server, not by the client's backoff. */
export const FLOOR_BAND_MS = 50;
/** Spread: same-position waits of retry sequences differing by more than this (median) show random spread... */
export const SPREAD_MIN_MS = 50;
/** ...and differing by at most this show none (between the two: undecided, not observed). */
export const SAME_WAIT_MS = 30;
/** Attempts in a row the interface's guidance makes at most. */
export const GUIDANCE_ATTEMPTS = 4;

const chainsOf = (buckets: readonly ClientBucket[]) => buckets.flatMap((b) => findChains(b));
const ids = (l: Link) => [l.prev.requestId, l.next.requestId];
/** A wait the client chose: answered, and not set by the server (within FLOOR_BAND_MS beyond a Retry-After). */
const backoff = (l: Link): l is Link & { waitMs: number } =>
  l.waitMs !== undefined && (l.floorMs === 0 || l.waitMs > l.floorMs + FLOOR_BAND_MS);

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
        // The same key with other content is a new operation under a reused key: idempotency.one-key-one-content.
        if (!l.sameContent) continue;
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
    for (const chain of chainsOf(buckets))
      for (const l of chain.links) {
        if (!MODIFYING.has(l.next.method) || !RETRYABLE.has(l.cause) || !l.sameContent) continue;
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
    return verdict(bad, good, 'retries after a 429', 'no retry after a 429 with Retry-After seen yet');
  },
};

export const growingWaits: ClientRule = {
  id: 'retry.growing-waits',
  severity: 'MUST',
  title: 'Waits between retries of one operation grow',
  section: 'Limits',
  sentence: 'Clients retry with growing intervals and slight random spread.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const chain of chainsOf(buckets))
      for (let i = 1; i < chain.links.length; i++) {
        const a = must(chain.links[i - 1], 'a link index lies inside the chain');
        const b = must(chain.links[i], 'a link index lies inside the chain');
        // Unanswered attempts have no wait; a wait the server set (Retry-After) is not the client's choice.
        if (!backoff(a) || !backoff(b)) continue;
        const e = (note: string) =>
          evidence(chain.bucket, [a.prev.requestId, a.next.requestId, b.next.requestId], a.prev.at, note, [
            a.waitMs,
            b.waitMs,
          ]);
        if (b.waitMs >= a.waitMs + RETRY_AFTER_SLACK_MS) good.push(e('the wait grew'));
        else bad.push(e(`the wait did not grow: ${Math.round(a.waitMs)} ms, then ${Math.round(b.waitMs)} ms`));
      }
    return verdict(bad, good, 'pairs of consecutive waits', 'no operation retried twice yet (two waits are needed)');
  },
};

export const spreadWaits: ClientRule = {
  id: 'retry.spread',
  severity: 'SHOULD',
  title: 'Retry waits carry a random spread (jitter)',
  section: 'Limits',
  sentence: 'Clients retry with growing intervals and slight random spread.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const b of buckets) {
      // Same-position waits of different operations: without jitter every client retries in lockstep.
      // The median difference decides, so one delayed call (measurement noise) does not.
      const chains = findChains(b)
        .filter((c) => c.links.some(backoff))
        .slice(-20);
      const diffs: number[] = [];
      for (let i = 0; i < chains.length; i++)
        for (let j = i + 1; j < chains.length; j++)
          diffs.push(...positionDiffs(must(chains[i], 'i < chains.length'), must(chains[j], 'j < chains.length')));
      if (!diffs.length) continue;
      const median = must(diffs.sort((x, y) => x - y)[Math.floor((diffs.length - 1) / 2)], 'diffs is not empty');
      const waits = chains.map((c) => c.links.filter(backoff).map((l) => Math.round(l.waitMs)));
      const e = (note: string) =>
        evidence(
          b,
          chains.map((c) => firstCall(c).requestId),
          firstCall(must(chains[0], 'diffs come from at least two chains')).at,
          `${note} (${chains.length} retry sequences, waits ${waits.map((w) => `[${w.join(', ')}]`).join(' ')})`,
        );
      if (median > SPREAD_MIN_MS)
        good.push(e(`same-position waits differ by ${Math.round(median)} ms (median): spread`));
      else if (median <= SAME_WAIT_MS)
        bad.push(e(`same-position waits differ by ${Math.round(median)} ms (median): no random spread`));
    }
    return verdict(
      bad,
      good,
      'clients with several retry sequences',
      'fewer than two retry sequences with backoff waits seen yet, or undecided',
    );
  },
};

/** A chain starts with the call its first link repeats, so it is never empty. */
const firstCall = (c: Chain) => must(c.calls[0], 'a chain holds the call it starts with');

function positionDiffs(x: Chain, y: Chain): number[] {
  const out: number[] = [];
  for (let k = 0; k < Math.min(x.links.length, y.links.length); k++) {
    const [a, b] = [x.links[k], y.links[k]];
    if (a && b && backoff(a) && backoff(b)) out.push(Math.abs(a.waitMs - b.waitMs));
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
