import type { CallRecord, ClientBucket } from './observation.ts';
import { must } from '../lib/invariant.ts';

/**
 * How far back a repeat is looked for: a call more than this after the earlier call's answer is a new
 * operation, not a retry (2 minutes: well beyond the guidance's 4 attempts with doubling waits).
 */
export const RETRY_WINDOW_MS = 120_000;
/** At most this many earlier calls of the same client and tenant are searched for the original. */
export const LOOKBACK_CALLS = 50;

/** Why the earlier attempt did not settle the operation, as the client saw it. */
export type Cause = 'rate_limited' | 'internal' | 'transport' | 'unanswered' | 'success' | 'client_error';
/** Causes after which the interface allows a retry (429, 500, and a transport failure: no answer, 502-504). */
export const RETRYABLE: ReadonlySet<Cause> = new Set(['rate_limited', 'internal', 'transport', 'unanswered']);

/** One repeat: `next` repeats `prev`. */
export interface Link {
  prev: CallRecord;
  next: CallRecord;
  cause: Cause;
  /** Answer of prev sent to arrival of next; undefined when next came before prev was answered. */
  waitMs: number | undefined;
  /** Floor the server set for this wait (Retry-After of prev), 0 without. */
  floorMs: number;
  sameKey: boolean;
  sameContent: boolean;
}

/** The attempts of one operation, in order. */
export interface Chain {
  bucket: ClientBucket;
  calls: CallRecord[];
  links: Link[];
}

/** Why `prev` did not settle the operation, seen from the arrival of `next`. */
export function causeOf(prev: CallRecord, next: CallRecord): Cause {
  if (prev.answeredAt === 0 || prev.answeredAt > next.at) return 'unanswered';
  if (prev.status === 0 || prev.status === 502 || prev.status === 503 || prev.status === 504) return 'transport';
  if (prev.status === 429) return 'rate_limited';
  if (prev.status >= 500) return 'internal';
  if (prev.status < 400) return 'success';
  return 'client_error';
}

/**
 * The retry heuristic. A call C repeats an earlier call P of the same client and tenant, within
 * RETRY_WINDOW_MS of P's answer and among the last LOOKBACK_CALLS calls, with the same method and path, when
 * - both carry the same Idempotency-Key (whatever P's outcome; a 401 followed by a call with another
 *   token is a new access, not a repeat), or
 * - C carries no key or another key, its body is byte-identical to P's (bodies are compared by hash),
 *   and P failed in a way that allows a retry (429, 500, 502-504, no answer, or not yet answered).
 * The nearest such earlier call is P. A GET repeated after a success is polling, never a repeat.
 * @example for (const chain of findChains(bucket)) console.log(chain.calls.length, chain.links.map((l) => l.waitMs));
 */
export function findChains(bucket: ClientBucket): Chain[] {
  // Records are written when answered; a retry can be answered before a held original: order by arrival.
  const calls = bucket.calls.slice().sort((x, y) => x.at - y.at || x.seq - y.seq);
  const chainOf = new Map<CallRecord, Chain>();
  const chains: Chain[] = [];
  for (let i = 0; i < calls.length; i++) {
    const c = must(calls[i], 'a call index lies inside the sorted calls');
    const link = findOriginal(calls, i, c);
    if (!link) continue;
    let chain = chainOf.get(link.prev);
    if (!chain) {
      chain = { bucket, calls: [link.prev], links: [] };
      chains.push(chain);
      chainOf.set(link.prev, chain);
    }
    chain.calls.push(c);
    chain.links.push(link);
    chainOf.set(c, chain);
  }
  return chains;
}

function findOriginal(calls: CallRecord[], i: number, c: CallRecord): Link | undefined {
  for (let j = i - 1; j >= 0 && i - j <= LOOKBACK_CALLS; j--) {
    const p = must(calls[j], 'a lookback index lies inside the sorted calls');
    if (c.at - (p.answeredAt || p.at) > RETRY_WINDOW_MS) return undefined;
    if (p.method !== c.method || p.path !== c.path) continue;
    const cause = causeOf(p, c);
    const sameKey = c.key !== undefined && p.key === c.key;
    if (sameKey) {
      if (p.status === 401 && p.token !== c.token) return undefined;
      return make(p, c, cause, true);
    }
    if (p.bodyHash === c.bodyHash) return RETRYABLE.has(cause) ? make(p, c, cause, false) : undefined;
  }
  return undefined;
}

function make(prev: CallRecord, next: CallRecord, cause: Cause, sameKey: boolean): Link {
  return {
    prev,
    next,
    cause,
    waitMs: cause === 'unanswered' ? undefined : next.at - prev.answeredAt,
    floorMs: prev.retryAfterMs ?? 0,
    sameKey,
    sameContent: prev.bodyHash === next.bodyHash,
  };
}
