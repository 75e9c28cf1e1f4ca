import { must } from '../lib/invariant.ts';
import { hedges, keyUsedAgain } from './hedges.ts';
import type { CallRecord, ClientBucket } from './observation.ts';
import { isPolling } from './polling.ts';
import { type TokenSpans, tokenSpans } from './processes.ts';
import { remedied } from './remedies.ts';

/**
 * How far back a repeat is looked for: a call more than this after the earlier call's answer is a new
 * operation, not a retry (2 minutes: well beyond the guidance's 4 attempts with doubling waits).
 */
export const RETRY_WINDOW_MS = 120_000;
/** At most this many earlier calls of the same client and tenant are searched for the original: as many as a
 * bucket keeps by default, so a retry re-queued behind a batch of other calls (within the window) is still seen. */
export const LOOKBACK_CALLS = 200;

/**
 * Why the earlier attempt did not settle the operation, as the client saw it; `concurrent` when the
 * client was still awaiting it (a parallel call, not a repeat).
 */
export type Cause =
  | 'rate_limited'
  | 'internal'
  | 'transport'
  | 'unanswered'
  | 'success'
  | 'client_error'
  | 'concurrent'
  | 'remedied';
/**
 * Causes after which the interface allows a retry (429, 500, and a transport failure: no answer, 502-504), and
 * the remedy of a 401 met by a retry (a new token): the operation's attempts go on through it.
 */
export const RETRYABLE: ReadonlySet<Cause> = new Set([
  'rate_limited',
  'internal',
  'transport',
  'unanswered',
  'remedied',
]);

/** One repeat: `next` repeats `prev`. */
export interface Link {
  prev: CallRecord;
  next: CallRecord;
  cause: Cause;
  /** Answer of prev sent to arrival of next; undefined when next came before prev was answered. */
  waitMs: number | undefined;
  /** Floor the server set for this wait (Retry-After of prev), 0 without. */
  floorMs: number;
  /** prev's answer gave a Retry-After (also `0`: the server set a wait of none). */
  floorGiven: boolean;
  sameKey: boolean;
}

/** The attempts of one operation, in order. */
export interface Chain {
  bucket: ClientBucket;
  calls: CallRecord[];
  links: Link[];
  /**
   * A read (a call on a route that requires no Idempotency-Key) polled at a fixed cadence that kept it
   * through failures: the same content succeeded just before at that cadence, and every repeat came at it. Polling is not retrying: its intervals are
   * not judged as backoff (growth, spread, attempt limit). Modifying calls at such a cadence, each under
   * a key of its own, are a series of new operations (not judged by retry.same-key-and-content either).
   */
  polling: boolean;
}

/** A client's close may reach the server just after its retry arrived: this much later still counts as before. */
export const GONE_RACE_MS = 200;

/**
 * A connection whose first call came this long after it was accepted, and this long after another call's
 * answer, was opened ahead of need: its call is no call sent beside that one (a client sending calls at once
 * writes each as soon as its connection opens, within a millisecond or two on loopback).
 */
export const WARM_CONNECTION_MS = 25;

/** When the client stopped waiting for a call: its answer, or earlier, when it gave up on it. */
export function settledAt(p: CallRecord): number {
  return p.goneAt && (p.goneAt < p.answeredAt || p.answeredAt === 0) ? p.goneAt : p.answeredAt;
}

/** Why `prev` did not settle the operation, seen from the arrival of `next`. */
export function causeOf(prev: CallRecord, next: CallRecord): Cause {
  const gaveUp = prev.goneAt > 0 && prev.goneAt === settledAt(prev);
  if (gaveUp)
    return prev.goneAt <= next.at ? 'transport' : prev.goneAt <= next.at + GONE_RACE_MS ? 'unanswered' : 'concurrent';
  if (prev.answeredAt === 0 || prev.answeredAt > next.at) return prev.watched ? 'concurrent' : 'unanswered';
  // Next opened a connection the server had accepted before prev's answer left: the client opened it to
  // send next before it had that answer (calls sent at once, the first answered before the second is
  // read). A retry is sent after the answer, on a connection kept alive or opened after it, or on one a
  // pool opened ahead of need: that connection lay idle, and next came well after prev's answer.
  const warm = next.connectionIdleMs >= WARM_CONNECTION_MS && next.at - prev.answeredAt >= WARM_CONNECTION_MS;
  if (next.connection > 0 && next.connection <= prev.connectionsAtAnswer && !warm) return 'concurrent';
  if (prev.status === 0 || prev.status === 502 || prev.status === 503 || prev.status === 504) return 'transport';
  if (prev.status === 429) return 'rate_limited';
  if (prev.status >= 500) return 'internal';
  if (prev.status < 400) return 'success';
  return 'client_error';
}

/**
 * The retry heuristic. A call C repeats an earlier call P of the same client and tenant, within
 * RETRY_WINDOW_MS of P's answer (and P's Retry-After beyond it, after a 429) and among the last LOOKBACK_CALLS calls, with the same method and path, when
 * - both carry the same Idempotency-Key (on a route that requires one) and content (whatever P's
 *   outcome; a 401 followed by a call with another token is a new access, not a repeat), the nearest
 *   such P; or, when no earlier call has C's key,
 * - C asks for the same content (query and body) as P, P is not repeated already (each attempt has at
 *   most one retry: concurrent operations with equal content are told apart), P's own key was not used
 *   again later (its operation went on under that key), and P failed: 429, 500, 502-504, no answer, not
 *   yet answered, or a 4xx that C does nothing about (a 401 answered by a new token, a missing or
 *   conflicting key answered by a new key are new calls, as the remedies say).
 * A call repeated after a success with the same content and no common key is polling, never a repeat.
 * Processes of the client running at once (two tokens in use at the same time, see processes.ts) are
 * kept apart for reads and for a success: a read never repeats another process's read, nor a keyed
 * create another process's success; a failed create sent again by another process is its retry.
 * @example for (const chain of findChains(bucket)) console.log(chain.calls.length, chain.links.map((l) => l.waitMs));
 */
export function findChains(bucket: ClientBucket): Chain[] {
  // The rules of one report (and of one dropped batch) ask for the same bucket's chains in turn: found
  // once while the bucket's calls stay as they were (read-only for the rules).
  const newest = bucket.calls.newest();
  const open = bucket.kept?.open;
  const known = lastChains.get(bucket);
  if (
    known &&
    known.newest === newest &&
    known.size === bucket.calls.size &&
    known.open === open &&
    known.openLength === (open?.length ?? 0)
  )
    return known.chains;
  const chains = chainsOf(bucket);
  lastChains.set(bucket, { newest, size: bucket.calls.size, open, openLength: open?.length ?? 0, chains });
  return chains;
}

/** A bucket's chains as last found, and what they were found from. */
const lastChains = new WeakMap<
  ClientBucket,
  {
    newest: CallRecord | undefined;
    size: number;
    open: readonly CallRecord[] | undefined;
    openLength: number;
    chains: Chain[];
  }
>();

function chainsOf(bucket: ClientBucket): Chain[] {
  // Records are written when answered; a retry can be answered before a held original: order by arrival.
  // With the failures the ring dropped while their retry may still come (kept-verdicts.ts).
  const open = bucket.kept?.open;
  const kept = bucket.calls.slice();
  const calls = (open?.length ? [...new Set([...open, ...kept])] : kept).sort((x, y) => x.at - y.at || x.seq - y.seq);
  const carried = open?.length ? openIndices(calls, open) : NONE;
  const chainOf = new Map<CallRecord, Chain>();
  const repeated = new Set<CallRecord>();
  // The calls that retry an earlier one after a failure the guidance allows: a 401 met by one of them ends no
  // operation (its remedy, a new token, carries its attempts on).
  const retried = new Set<CallRecord>();
  const chains: Chain[] = [];
  const spans = tokenSpans(calls);
  for (let i = 0; i < calls.length; i++) {
    const c = must(calls[i], 'a call index lies inside the sorted calls');
    const link = findOriginal(calls, i, c, repeated, spans, carried, retried);
    if (!link) continue;
    repeated.add(link.prev);
    if (RETRYABLE.has(link.cause)) retried.add(c);
    let chain = chainOf.get(link.prev);
    if (!chain) {
      chain = { bucket, calls: [link.prev], links: [], polling: false };
      chains.push(chain);
      chainOf.set(link.prev, chain);
    }
    chain.calls.push(c);
    chain.links.push(link);
    chainOf.set(c, chain);
  }
  for (const chain of chains) chain.polling = isPolling(calls, chain);
  return chains;
}

/** Where the carried failures sit among the sorted calls, in order. */
function openIndices(calls: readonly CallRecord[], open: readonly CallRecord[]): number[] {
  const carried = new Set(open);
  const out: number[] = [];
  for (let j = 0; j < calls.length; j++) if (carried.has(calls[j] as CallRecord)) out.push(j);
  return out;
}

/** Returned by a lookback step that found nothing: search on. */
const ON = Symbol('search on');
const NONE: readonly number[] = [];

function findOriginal(
  calls: CallRecord[],
  i: number,
  c: CallRecord,
  repeated: Set<CallRecord>,
  spans: TokenSpans,
  carried: readonly number[],
  retried: ReadonlySet<CallRecord> = new Set(),
): Link | undefined {
  // A retry refused 401 and sent again with a new token (the remedy) is the same operation's next attempt: its
  // key and its attempt count go on. A first call refused 401 and sent again is a new call, as before.
  const throughRemedy = (p: CallRecord) =>
    p.status === 401 && retried.has(p) ? make(p, c, 'remedied', p.key === c.key) : undefined;
  const from = Math.max(0, i - LOOKBACK_CALLS);
  // Searched newest first: the last LOOKBACK_CALLS calls, then failures older than them that are still
  // in their window (a ring's dropped failures, kept-verdicts.ts): a busy client's retry is found behind
  // hundreds of other calls, as long as it comes within its window.
  const older = from > 0 && carried.length > 0 ? carried.filter((j) => j < from).reverse() : NONE;
  // A 429's wait lengthens its window by Retry-After: a client told to wait 180 s retries later than the
  // usual window, and one that retries before such a wait ended must be seen doing it. Windows differ
  // per call, so an older call out of its window does not end the search (the lookback bounds it).
  const inWindow = (p: CallRecord) =>
    c.at - (settledAt(p) || p.at) <= RETRY_WINDOW_MS + (p.status === 429 ? (p.retryAfterMs ?? 0) : 0);
  const same = (p: CallRecord) => p.method === c.method && p.path === c.path;
  const search = (step: (j: number) => Link | undefined | typeof ON): Link | undefined | typeof ON => {
    for (let j = i - 1; j >= from; j--) {
      const r = step(j);
      if (r !== ON) return r;
    }
    for (const j of older) {
      const r = step(j);
      if (r !== ON) return r;
    }
    return ON;
  };
  // A key counts only on routes that require one: sent along with a read or a check it means nothing
  // to the service (a client may send one session key on every call), and the content decides.
  if (c.key !== undefined && c.modifying) {
    const byKey = search((j) => {
      const p = must(calls[j], 'a lookback index lies inside the sorted calls');
      if (!inWindow(p)) return ON;
      if (!same(p) || p.key !== c.key) return ON;
      // A refusal C answers with the remedy (a new token after a 401, another Service-Version after
      // one refused): a new call, whatever key it carries.
      if (remedied(p, c)) return throughRemedy(p);
      // The same key with other content is another operation under a reused key, not a retry (its
      // waits are no backoff): idempotency.one-key-one-content judges it. An earlier call with this
      // key and C's content may still be what C retries.
      if (p.bodyHash !== c.bodyHash) return ON;
      // The same key while the first is still awaited: a retry after the client's own timeout that left
      // the first request open (a timer raced against it), not a parallel call.
      const cause = causeOf(p, c);
      // A success another process of the client got (another token in use at the same time): C's process
      // never saw it. An operation delivered to two workers (a queue's at-least-once redelivery) is sent
      // by each with its key, and the service answers the second with the first's answer: what keys are for.
      if (cause === 'success' && spans.apart(p, c)) return undefined;
      return make(p, c, cause === 'concurrent' ? 'unanswered' : cause, true);
    });
    if (byKey !== ON) return byKey;
  }
  const byContent = search((j) => {
    const p = must(calls[j], 'a lookback index lies inside the sorted calls');
    if (!inWindow(p)) return ON;
    if (!same(p) || p.bodyHash !== c.bodyHash || repeated.has(p)) return ON;
    // A read of another process of the client (pods of a fleet, a cron job beside a worker, each with
    // its own token in use at the same time) is that process's own call: it never got P's answer, so it
    // neither repeats P nor owes P's Retry-After. Modifying calls stay linked across processes: a sibling
    // sending a failed create again is a retry of that operation, and must carry its key.
    if (!p.modifying && spans.apart(p, c)) return ON;
    const cause = causeOf(p, c);
    if (cause === 'concurrent' && hedges(calls, j, i)) return make(p, c, 'unanswered', false);
    if (cause === 'client_error' && remedied(p, c) && throughRemedy(p)) return throughRemedy(p);
    // A success with this content (polling), or a refusal C answers with the remedy: not C's original,
    // but an older failed attempt of another operation with equal content may still be.
    if (cause === 'success' || cause === 'concurrent' || (cause === 'client_error' && remedied(p, c))) return ON;
    // P's key going on makes a copy under another key an operation of its own (twins with equal
    // content); a copy without a key is none (the service refuses it): it is P's retry without its key.
    if (p.modifying && p.key !== undefined && c.key !== undefined && keyUsedAgain(calls, j, p.key)) return ON;
    return make(p, c, cause, false);
  });
  return byContent === ON ? undefined : byContent;
}

function make(prev: CallRecord, next: CallRecord, cause: Cause, sameKey: boolean): Link {
  return {
    prev,
    next,
    cause,
    // No backoff after a 401's remedy: the new token is sent at once, the waits are the failures' own.
    waitMs:
      cause === 'unanswered' || cause === 'concurrent' || cause === 'remedied' ? undefined : next.at - settledAt(prev),
    floorMs: prev.retryAfterMs ?? 0,
    floorGiven: prev.retryAfterMs !== undefined,
    sameKey,
  };
}
