// The kit paced by the deployment it judges. "When exceeded, the service answers 429 with a wait time.
// Clients retry with growing intervals": a 429 to a request under the retry policy holds every request of
// the run for its Retry-After, not only the refused one (the other checks' calls would spend the same
// window and draw more 429s), and event streams are opened under the same policy as calls.
import {
  INTERFACE_RETRY_POLICY,
  isRetryable,
  parseRetryAfter,
  type RetryOptions,
  retryDelayMs,
} from '../../simulator/contract/retry-policy.ts';

/** Waits `ms` or until `signal` fires. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** The random spread of calls released after a hold: the sample client's "random amount up to 250 ms". */
export const RELEASE_SPREAD_MS = 250;

export interface PaceGate {
  /** Resolves once no Retry-After holds the run (at once when none does, or when `signal` fires). */
  wait(signal?: AbortSignal): Promise<void>;
  /**
   * A 429 said to wait `ms`: no request of the run starts before it ends. A wait longer than `maxMs` is one the
   * kit will not retry after, so it holds nothing (counted in `held.ignored` for the run's notice).
   */
  hold(ms: number): void;
  /** How often a 429 held the run, the longest hold, and the waits too long to honour (for the run's notice). */
  readonly held: { times: number; longestMs: number; ignored?: number; longestIgnoredMs?: number };
  /**
   * How long the run was held between `from` and now (ms, on the gate's clock): a wait for something the run's
   * own calls bring about (a stream message after a write) is lengthened by it, as those calls were held.
   */
  heldSince(from: number): number;
}

/** Hold intervals kept for heldSince (the recent ones: a wait spans seconds, not a run). */
const KEPT_HOLDS = 64;

/**
 * The run's gate: one pause every request waits out before it is sent.
 * @example const gate = paceGate(60_000); await gate.wait(); const r = await send(); if (r.status === 429) gate.hold(2000);
 */
export function paceGate(
  maxMs: number,
  now: () => number = Date.now,
  sleep: (ms: number, signal?: AbortSignal) => Promise<void> = pause,
  random: () => number = Math.random,
): PaceGate {
  let until = 0;
  const held = { times: 0, longestMs: 0, ignored: 0, longestIgnoredMs: 0 };
  // Disjoint, in order: a hold overlapping the last one extends it.
  const holds: { from: number; until: number }[] = [];
  return {
    held,
    heldSince(from) {
      const t = now();
      let ms = 0;
      for (const h of holds) ms += Math.max(0, Math.min(h.until, t) - Math.max(h.from, from));
      return ms;
    },
    async wait(signal) {
      let waited = false;
      for (let left = until - now(); left > 0 && !signal?.aborted; left = until - now()) {
        waited = true;
        await sleep(left, signal);
      }
      // Released with "slight random spread", not all at once: calls held together by one Retry-After and sent
      // in the same instant meet a smoothed limit (one call per few ms) as a burst again.
      const spread = waited && !signal?.aborted ? Math.floor(random() * RELEASE_SPREAD_MS) : 0;
      if (spread > 0) await sleep(spread, signal);
    },
    hold(ms) {
      if (ms <= 0) return;
      // The retry policy gives up on a wait beyond maxMs (the call is not retried): holding every other request
      // of the run for it would only stall the run, again at each such 429.
      if (ms > maxMs) {
        held.ignored++;
        held.longestIgnoredMs = Math.max(held.longestIgnoredMs, ms);
        return;
      }
      held.times++;
      held.longestMs = Math.max(held.longestMs, ms);
      const t = now();
      const last = holds.at(-1);
      if (last && last.until >= t) last.until = Math.max(last.until, t + ms);
      else holds.push({ from: t, until: t + ms });
      if (holds.length > KEPT_HOLDS) holds.shift();
      until = Math.max(until, t + ms);
    },
  };
}

/** What a gated attempt answers: a status and headers to read Retry-After from. */
interface Answer {
  status: number;
  headers: { get(name: string): string | null };
}

/**
 * Runs `attempt` behind the gate; a 429 holds the gate for its Retry-After when the request is retried.
 * @example const r = await gated(gate, () => once(req), true, req.signal);
 */
export async function gated<T extends Answer>(
  gate: PaceGate,
  attempt: () => Promise<T>,
  holds: boolean,
  signal?: AbortSignal,
): Promise<T> {
  await gate.wait(signal);
  const result = await attempt();
  if (holds && result.status === 429) gate.hold(parseRetryAfter(result.headers.get('retry-after')) ?? 0);
  return result;
}

/**
 * Opens an event stream under the retry policy: an answer of 429 or 500 that is not a stream is tried
 * again after the policy's wait (Retry-After when longer), up to its attempts; `close` ends a refused one.
 * @example const session = await openRetried((n) => openOnce(req), (s) => s.isStream ? undefined : s.ex, opts);
 */
export async function openRetried<S extends { isStream: boolean; close(): Promise<void> }>(
  open: () => Promise<S>,
  answerOf: (s: S) => { status: number; headers: Record<string, string> },
  opts: RetryOptions | false,
  signal?: AbortSignal,
): Promise<S> {
  const policy = (opts ? opts.policy : undefined) ?? INTERFACE_RETRY_POLICY;
  const maxWait = opts ? (opts.maxWaitMs ?? 60_000) : 60_000;
  for (let n = 0; ; n++) {
    const session = await open();
    const answer = answerOf(session);
    if (session.isStream || opts === false || !isRetryable(answer.status, policy) || n + 1 >= policy.maxAttempts)
      return session;
    const waitMs = retryDelayMs(n, {
      retryAfter: answer.headers['retry-after'] ?? null,
      policy,
      ...(opts.random ? { random: opts.random } : {}),
    });
    if (waitMs > maxWait || signal?.aborted) return session;
    await session.close();
    await (opts.sleep ? opts.sleep(waitMs) : pause(waitMs, signal));
  }
}
