// Polling told from retrying: a read repeated at the cadence of the successful reads before it is a
// poll, not a retry, and its intervals are no backoff (attempts.ts finds the chains, this judges them).
import type { Chain } from './attempts.ts';
import type { CallRecord } from './observation.ts';

/** A repeat comes at the polling cadence when its gap is within this share of it (or CADENCE_MIN_MS). */
export const CADENCE_SHARE = 0.25;
export const CADENCE_MIN_MS = 100;

/**
 * The chain's reads came at the cadence of successful reads of the same content just before it (up to
 * three of them: their gaps give the cadence's range, as a busy machine delays some polls). A read is
 * any call on a route that requires no Idempotency-Key: a GET, or a capability check, a POST that
 * changes nothing and is polled like a GET (asking a decision until a paused connection is resumed).
 * @example for (const chain of chains) chain.polling = isPolling(sortedCalls, chain);
 */
export function isPolling(calls: CallRecord[], chain: Chain): boolean {
  const first = chain.calls[0];
  if (!first) return false;
  const earlier: CallRecord[] = [first];
  for (let j = calls.indexOf(first) - 1; j >= 0 && earlier.length < 4; j--) {
    const q = calls[j];
    if (!q || q.method !== first.method || q.path !== first.path || q.bodyHash !== first.bodyHash) continue;
    if (q.status < 200 || q.status >= 300) break;
    earlier.push(q);
  }
  if (earlier.length < 2) return false;
  // A series of creations needs two successful ones before the chain to show its cadence: with one, the only
  // gap is the one to the failed call, and a form submitted again a second after a creation, then retried
  // under yet another key at that second, would pass for a series (a double effect the key exists to stop).
  // A read keeps one: a cron polling every minute, one run answered and the next failing, is polling.
  if (first.modifying && earlier.length < 3) return false;
  // A modifying call at such a cadence is a series of operations (a load script creating the same
  // connection every second), not a retry, only when each call carries a key of its own: "use a new key
  // for each new operation". A key sent again, or none, is the retry it looks like.
  if (first.modifying && !ownKeys([...earlier, ...chain.calls.slice(1)])) return false;
  const gaps = earlier.slice(1).map((q, k) => (earlier[k]?.at ?? q.at) - q.at);
  const [lo, hi] = [Math.min(...gaps), Math.max(...gaps)];
  const tol = (ms: number) => Math.max(CADENCE_MIN_MS, ms * CADENCE_SHARE);
  return chain.links.every((l) => {
    const gap = l.next.at - l.prev.at;
    return gap >= lo - tol(lo) && gap <= hi + tol(hi);
  });
}

/** Every call carries an Idempotency-Key, and no key comes twice. */
function ownKeys(calls: CallRecord[]): boolean {
  const keys = new Set<string>();
  for (const c of calls) {
    if (c.key === undefined || keys.has(c.key)) return false;
    keys.add(c.key);
  }
  return true;
}
