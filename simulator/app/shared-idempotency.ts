// Idempotent writing calls in a shared sandbox, in one round trip: the key is claimed and the call's
// log entry appended by one script (state/redis/redis-idempotency.ts), so a record never exists
// without its entry. Every replica applies the entry and keeps its outcome here, by entry id: a repeat
// of the key on any replica catches up to that entry and answers its outcome; nothing is written back
// to Redis and no replica waits on another's lease.
import { ApiError } from '../core/api-error.ts';
import type { RequestContext } from '../core/context.ts';
import type { ContextWith } from '../core/step.ts';
import type { Reply } from '../core/reply.ts';
import type { HandlerResult } from '../handlers/types.ts';
import { failureOutcomeOf, fingerprint, outcomeOf, replayOf } from '../middleware/idempotency.ts';
import type { StoredOutcome } from '../services/idempotency-service.ts';
import type { OpLog } from '../state/redis/op-log.ts';
import type { RedisIdempotencyStore } from '../state/redis/redis-idempotency.ts';

/** A key found freed this many times in a row (its operations keep no outcome) ends the call with 500. */
const MAX_CLAIMS = 8;

/**
 * `record` runs an applied entry's handler and keeps its outcome; `submit` makes a writing call with
 * an Idempotency-Key (claim + append, or the outcome of the entry holding the key); its `args` must be
 * plain JSON (this replica applies its own entry from them, see SubmitOptions).
 * @example const idem = shareIdempotency(store, log, () => clock.now()); return idem.submit(ctx, 'handler', [routeId, ref, snapshot]);
 */
export function shareIdempotency(store: RedisIdempotencyStore, log: OpLog, now: () => number) {
  // Entry id -> what its operation keeps (undefined: nothing; the key is free again), with the
  // operation's sandbox time. Kept as long as a record may name the entry (the key's TTL from the
  // operation) and at most the store's record limit, oldest first, as in the memory store: past it,
  // such a key is forgotten. Settled outcomes replace their promise (a snapshot keeps those).
  type Kept = StoredOutcome | undefined | Promise<StoredOutcome | undefined>;
  const outcomes = new Map<string, { at: number; outcome: Kept }>();
  const keep = (entry: string, at: number, outcome: Kept) => {
    const kept = { at, outcome };
    outcomes.set(entry, kept);
    if (outcome instanceof Promise) void outcome.then((o) => (kept.outcome = o));
    for (const [oldest, { at: then }] of outcomes) {
      if (outcomes.size <= store.options.maxRecords && then + store.options.ttlMs > at) break;
      outcomes.delete(oldest);
    }
  };

  return {
    /** Applies an entry of an idempotent call (on every replica alike) and keeps its outcome. */
    record(entry: string, run: () => HandlerResult): HandlerResult {
      let result: HandlerResult;
      try {
        result = run();
      } catch (err) {
        keep(entry, now(), failureOutcomeOf(err));
        throw err;
      }
      keep(entry, now(), result instanceof Promise ? result.then(outcomeOf, failureOutcomeOf) : outcomeOf(result));
      return result;
    },
    /** The settled outcomes, for a snapshot (entry id, time, outcome or null when it kept nothing). */
    dump(): [string, number, StoredOutcome | null][] {
      const out: [string, number, StoredOutcome | null][] = [];
      for (const [entry, { at, outcome }] of outcomes)
        if (!(outcome instanceof Promise)) out.push([entry, at, outcome ?? null]);
      return out;
    },
    restore(dumped: [string, number, StoredOutcome | null][]) {
      for (const [entry, at, o] of dumped) keep(entry, at, o ?? undefined);
    },
    async submit(ctx: RequestContext, op: string, args: unknown[]): Promise<Reply> {
      const tenant = ctx.access?.tenant ?? '';
      const key = ctx.idempotencyKey ?? '';
      const fp = fingerprint(ctx as ContextWith<'route' | 'body'>);
      let freed = '';
      for (let i = 0; i < MAX_CLAIMS; i++) {
        const r = await log.submitVia<Reply>(
          op,
          args,
          ctx.at,
          (entry, logKey) => store.claim(tenant, key, fp, entry, logKey, freed),
          { plain: true },
        );
        if (r.appended) return r.value;
        const [kind, entry = ''] = r.reply;
        await log.reach(entry);
        const outcome = await outcomes.get(entry)?.outcome;
        if (outcome === undefined) {
          freed = entry; // kept nothing (or forgotten): the key is free again
          continue;
        }
        if (kind === 'conflict')
          throw new ApiError('idempotency_conflict', {
            detail: 'This Idempotency-Key was used with a different body, method or route, or by another client.',
          });
        return replayOf(ctx, outcome);
      }
      throw new ApiError('internal', { detail: 'The Idempotency-Key could not be claimed; retry.' });
    },
  };
}
