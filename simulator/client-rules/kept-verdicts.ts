// What a bucket's calls proved before its ring dropped them. A bucket keeps its newest calls (200 by
// default); a client that broke a rule and then made hundreds of correct calls would otherwise pass,
// its violation gone before anyone asked for the report. So calls are judged once more on their way
// out, but only where there is something to find: from a dropped failure (a 4xx, 429, 5xx or no answer:
// what retries follow) on, the dropped calls gather in order (no gap, so a retry dropped right after its
// original is still seen with it) and are judged with the kept ones in batches; the violations naming
// them stay with the bucket. Plain successful traffic drops its calls at no cost.
// A dropped failure whose retry may still come (within its window) is also carried as `open`: a busy
// client retrying after hundreds of other calls is judged on that retry when it comes (attempts.ts).
import { RingBuffer } from '../lib/ring-buffer.ts';
import { RETRY_WINDOW_MS, settledAt } from './attempts.ts';
import type { CallRecord, ClientBucket } from './observation.ts';
import { type ClientRule, type Evidence, MAX_EVIDENCE, type ServiceFacts } from './rule.ts';

/** Dropped calls judged together: a flood of failures costs one judgement per this many calls. */
export const DROPPED_BATCH = 20;

/** Violations among calls the bucket no longer keeps, and dropped calls waiting to be judged. */
export interface KeptVerdicts {
  /** Per rule id, at most MAX_EVIDENCE entries. */
  evidence: Map<string, Evidence[]>;
  pending: CallRecord[];
  /** Dropped failures still within their retry window, oldest first, at most OPEN_KEPT. */
  open: CallRecord[];
}

/** Dropped failures carried per bucket: a flood of failures keeps the newest (each a few hundred bytes). */
export const OPEN_KEPT = 32;

/** When a retry of P can no longer come (its window, and a 429's Retry-After beyond it). */
const windowEnd = (p: CallRecord) =>
  (settledAt(p) || p.at) + RETRY_WINDOW_MS + (p.status === 429 ? (p.retryAfterMs ?? 0) : 0);

/** A call retries are judged from: a refusal, a failure or no answer. */
const worthJudging = (r: CallRecord) => r.status === 0 || r.status >= 400;

/**
 * Called when a bucket's ring drops a call: gathers it when it or an earlier gathered one is worth
 * judging, and judges the batch when it is full.
 * @example const dropped = b.calls.push(record); if (dropped) callDropped(b, dropped, (x) => judgeDropped(x, rules, service));
 */
export function callDropped(b: ClientBucket, dropped: CallRecord, judge: (b: ClientBucket) => void): void {
  // A call on the path of a carried failure may be its retry: judged with it before it is gone too.
  const mayRetry = b.kept?.open.some((p) => p.path === dropped.path && p.method === dropped.method) === true;
  if (!b.kept?.pending.length && !worthJudging(dropped) && !mayRetry) return;
  b.kept ??= { evidence: new Map(), pending: [], open: [] };
  if (worthJudging(dropped)) carry(b.kept, dropped, b.lastSeen);
  b.kept.pending.push(dropped);
  if (b.kept.pending.length >= DROPPED_BATCH) judge(b);
}

/** Keeps a dropped failure while its retry may come; forgets those whose window ended by `now`. */
function carry(kept: KeptVerdicts, dropped: CallRecord, now: number): void {
  kept.open = kept.open.filter((p) => windowEnd(p) >= now);
  if (windowEnd(dropped) < now) return;
  kept.open.push(dropped);
  if (kept.open.length > OPEN_KEPT) kept.open.shift();
}

/**
 * Judges the bucket's gathered dropped calls together with the calls it keeps, and keeps each violation
 * that names a dropped call (the kept calls are judged again in every report anyway).
 * @example judgeDropped(bucket, CLIENT_RULES, { keyValidityMs: 86_400_000 });
 */
export function judgeDropped(b: ClientBucket, rules: readonly ClientRule[], service: ServiceFacts): void {
  const kept = b.kept;
  if (!kept?.pending.length) return;
  const pending = kept.pending;
  kept.pending = [];
  const calls = new RingBuffer<CallRecord>(pending.length + b.calls.capacity);
  for (const c of [...pending, ...b.calls.slice()]) calls.push(c);
  // The calls only: stream and browser rules have their own records, judged in the report.
  const probe: ClientBucket = { ...b, calls, streams: new RingBuffer(1), streamsDroppedEnd: 0 };
  const gone = new Set(pending.map((c) => c.requestId));
  for (const rule of rules) {
    const v = rule.evaluate({ buckets: [probe], browser: [], receiverChecks: [], service });
    if (v.status !== 'fail') continue;
    const list = kept.evidence.get(rule.id) ?? [];
    for (const e of v.evidence) if (list.length < MAX_EVIDENCE && e.requestIds.some((id) => gone.has(id))) list.push(e);
    if (list.length) kept.evidence.set(rule.id, list);
  }
}

/**
 * A rule's violations among calls the buckets no longer keep.
 * @example const earlier = keptEvidence(buckets, 'retry.respects-retry-after');
 */
export function keptEvidence(buckets: readonly ClientBucket[], ruleId: string): Evidence[] {
  return buckets.flatMap((b) => b.kept?.evidence.get(ruleId) ?? []);
}
