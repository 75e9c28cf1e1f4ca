import { hash } from 'node:crypto';
import { canonicalJson } from '../contract/canonical-json.ts';
import type { ErrorCode } from '../contract/errors.ts';
import { ApiError } from '../core/api-error.ts';
import type { RequestContext } from '../core/context.ts';
import { errorValue } from '../core/envelope.ts';
import type { Next } from '../core/pipeline.ts';
import { type ContextWith, defineStep } from '../core/step.ts';
import { isDataReply, okJson, type Reply } from '../core/reply.ts';
import type { Begin, IdempotencyPort, StoredOutcome } from '../services/idempotency-service.ts';
import type { MaybePromise } from '../state/ports/maybe-promise.ts';

/** Failures that are the operation's own outcome, so the same request must get them again. */
const STORED_FAILURES: ReadonlySet<ErrorCode> = new Set(['not_found', 'capability_denied']);

/**
 * What makes two calls with one key the same operation (the shared sandbox claims keys with it too).
 * The caller is part of it (client, and the person a token acts for): another client of the same tenant
 * sending the same key and body gets idempotency_conflict, never a replay of someone else's answer (a
 * receiver's signing secret is shown once, to the caller that created it).
 */
export function fingerprint(ctx: ContextWith<'route' | 'body'>): string {
  const route = ctx.route;
  const token = ctx.access?.token;
  const caller = token ? `${token.clientId}/${token.personId ?? ''}` : '';
  return hash('sha256', `${route.method} ${route.id} ${caller}\n${canonicalJson(ctx.body ?? null)}`, 'base64url');
}

/** What a record keeps of a fresh answer: 2xx data values only (raw answers and 5xx stay retryable). */
export function outcomeOf(reply: Reply): StoredOutcome | undefined {
  if (!isDataReply(reply) || reply.status < 200 || reply.status >= 300) return undefined;
  return { status: reply.status, ok: true, data: reply.data };
}

/**
 * The JSON of replayed values, serialised on a value's first replay and kept as long as its record
 * keeps the value: a client retrying one key many times is not serialised again each time. Records
 * themselves keep values; fresh answers never pass through here.
 */
const replayJson = new WeakMap<object, string>();
function replayReply(status: number, data: unknown): Reply {
  if (typeof data !== 'object' || data === null) return { status, data };
  let json = replayJson.get(data);
  if (json === undefined) {
    json = JSON.stringify(data);
    replayJson.set(data, json);
  }
  return okJson(data, json, status);
}

/** What a record keeps of a failure: the operation's own 404/409 (5xx and the rest stay retryable). */
export function failureOutcomeOf(err: unknown): StoredOutcome | undefined {
  return err instanceof ApiError && STORED_FAILURES.has(err.code)
    ? { status: err.status, ok: false, error: errorValue(err) }
    : undefined;
}

/** A stored outcome again: the data value for the envelope step, or the failure thrown again. */
export function replayOf(ctx: RequestContext, stored: StoredOutcome): Reply {
  ctx.replayed = true;
  if (stored.ok) return replayReply(stored.status, stored.data);
  const { code, ...rest } = stored.error;
  throw new ApiError(code, rest);
}

/** Runs writes as one unit: with a data dir one SQLite transaction, committed before it returns. */
export type CommitTogether = <T>(writes: () => T) => T;

/** A fresh call whose key the handler settles itself, in the unit of its writes (`settledWithWrites`). */
interface Settling {
  op: Extract<Begin, { kind: 'new' }>;
  done: boolean;
  saved: MaybePromise<void>;
}
/** Fresh calls handed from the step to their handler (a handler reached without the step finds none). */
const settling = new WeakMap<RequestContext, Settling>();

function settle(call: Settling, outcome: StoredOutcome | undefined): void {
  call.done = true;
  call.saved = call.op.finish(outcome);
}

/**
 * The handler of an idempotent route that settles its key in the same unit as its own writes: the
 * connection (or receiver), its audit entry, its stream message and the key's outcome are committed
 * together, before the answer is written. A kill -9 at any instant keeps all of them or none, so a
 * retried key never makes a second connection. A handler that answers a promise (a store across the
 * network) is settled by the step when it ends, as before; a shared sandbox has its own unit (the
 * operation log, see app/shared-idempotency.ts).
 * @example handlers.createConnection = settledWithWrites(handlers.createConnection, (fn) => persistence.transaction(fn));
 */
export function settledWithWrites<C extends RequestContext>(
  handler: (ctx: C) => Reply | Promise<Reply>,
  together: CommitTogether,
): (ctx: C) => Reply | Promise<Reply> {
  return (ctx) => {
    const call = settling.get(ctx);
    if (!call) return handler(ctx);
    settling.delete(ctx);
    // A failure is kept (or frees the key) in the same unit and thrown after its commit: a rolled-back
    // unit would lose writes the repositories already hold.
    let error: unknown;
    const reply = together(() => {
      try {
        const r = handler(ctx);
        if (!(r instanceof Promise)) settle(call, outcomeOf(r));
        return r;
      } catch (err) {
        error = err;
        settle(call, failureOutcomeOf(err));
        return undefined;
      }
    });
    if (reply === undefined) throw error;
    return reply;
  };
}

/**
 * Replay and conflict for modifying calls (after validation, so rejected requests never use a key).
 * Same tenant + key + method + route + canonical body -> the stored status and data again with
 * meta.replayed; different content -> 409 idempotency_conflict; concurrent duplicates wait for the
 * first and then replay it. Stored: 2xx and the operation's own 404/409; not stored: 5xx (retryable).
 * Records keep values (`data`, `error`); the mount's last step writes the envelope for both.
 * With `handlerSettles` (a data dir) a fresh call's handler, wrapped by `settledWithWrites`, keeps the
 * outcome in the unit of its writes; the step settles only what it did not.
 */
export function idempotencyStep(store: IdempotencyPort, options: { handlerSettles?: boolean } = {}) {
  const handOver = options.handlerSettles === true;
  return defineStep({
    name: 'idempotency',
    requires: ['route', 'access', 'idempotencyKey', 'body'],
    // Not async itself: reads and streams pass on without a promise of their own.
    run(ctx, next) {
      if (!ctx.route.idempotent || ctx.idempotencyKey === undefined || !ctx.access) return next();
      return recorded(store, ctx, ctx.access.tenant, ctx.idempotencyKey, next, handOver);
    },
  });
}

/** A modifying call with its key: replayed, refused, waited for, or run once and its outcome kept. */
async function recorded(
  store: IdempotencyPort,
  ctx: ContextWith<'route' | 'body'>,
  tenant: string,
  key: string,
  next: Next,
  handOver: boolean,
): Promise<Reply> {
  const fp = fingerprint(ctx);
  for (;;) {
    const begun = store.begin(tenant, key, fp);
    // The memory store answers synchronously: no extra turn of the event loop on the default path.
    const b = begun instanceof Promise ? await begun : begun;
    if (b.kind === 'conflict') {
      throw new ApiError('idempotency_conflict', {
        detail: 'This Idempotency-Key was used with a different body, method or route, or by another client.',
      });
    }
    if (b.kind === 'replay') return replayOf(ctx, b.outcome);
    if (b.kind === 'wait') {
      await b.settled;
      continue;
    }
    const call: Settling | undefined = handOver ? { op: b, done: false, saved: undefined } : undefined;
    if (call) settling.set(ctx, call);
    try {
      const reply = await next();
      const saved = call?.done ? call.saved : b.finish(outcomeOf(reply));
      if (saved) await saved;
      return reply;
    } catch (err) {
      const saved = call?.done ? call.saved : b.finish(failureOutcomeOf(err));
      if (saved) await saved;
      throw err;
    } finally {
      if (call) settling.delete(ctx);
    }
  }
}
