import type { ControlOperations } from '../control/operations.ts';
import type { RequestContext } from '../core/context.ts';
import type { Handler } from '../handlers/types.ts';
import { newId, withSeededIds } from '../lib/ids.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import type { LogEntry } from '../state/redis/op-log.ts';
import type { RedisIdempotencyStore } from '../state/redis/redis-idempotency.ts';
import type { Core } from './create-core.ts';
import type { ReplayClock } from './replay-clock.ts';
import { shareAuthStores } from './shared-auth.ts';
import type { FamilyTrail } from './shared-families.ts';
import { shareIdempotency } from './shared-idempotency.ts';
import { spendOnce } from './shared-spend.ts';
import type { SandboxState } from './sandbox-state.ts';
import type { SharedStoreParts as SharedStore } from './shared-store-parts.ts';
import {
  type CtxSnapshot,
  rebuildContext,
  shareControl,
  snapshotOf,
  unavailable,
  WRITING_ROUTES,
} from './shared-requests.ts';
import { shareLocalStores } from './shared-stores.ts';
import type { Fault } from '../services/fault-service.ts';
import type { StoredOutcome } from '../services/idempotency-service.ts';
import { compactor } from '../state/redis/log-compaction.ts';
import type { SharedRateLimits } from '../state/redis/redis-rate-limit.ts';

/** What a snapshot keeps beside the stores' records (faults' Infinity uses come back as null). */
interface SnapshotParts {
  faults: (Omit<Fault, 'remaining'> & { remaining: number | null })[];
  rateLimits: ReturnType<SharedRateLimits['exportState']>;
  outcomes: [string, number, StoredOutcome | null][];
  families: FamilyTrail[];
}

/**
 * Turns one replica's state into a member of the shared sandbox: wraps the writing stores, handlers and
 * control operations so their changes go through the log, and returns what createSandbox wires in.
 */
export function shareSandbox(state: SandboxState, store: SharedStore, replay: ReplayClock, control: ControlOperations) {
  const { log, engine } = store;
  // Sandbox time is read through the clock service (state.clock): its offset moves only when a replica
  // applies the log's control operations (advance, reset), so every replica's clock moves alike;
  // `during` pins it to an entry's own time while the entry is applied.
  const clock = { now: () => state.clock.now(), during: replay.during };
  const bound = new Map<string, Handler>();
  const pending = new Map<string, RequestContext>();
  // While an operation of the log is applied, the wrapped stores change this replica only: the
  // operation itself is what every replica applies.
  let applying = false;
  const share = (op: string, args: unknown[]) => {
    if (!applying) log.share(op, args, clock.now());
  };

  // Writing calls with an Idempotency-Key: claim and append in one script (see shared-idempotency.ts).
  const idem = shareIdempotency(state.idempotency as RedisIdempotencyStore, log, () => clock.now());
  let applyingId = '';

  const { ops: storeOps } = shareLocalStores(state, share, () => applying, log, state.clock);

  // The OAuth server's codes and refresh families: applied here at once, shared by hash.
  const auth = shareAuthStores(share, clock);
  const single = spendOnce(
    engine,
    (token) => andThen(state.tokens.lookup(token), (record) => record?.family),
    // The refresh-family service revokes the family's access tokens with it; the second call covers a
    // replica whose authorization server is not built yet.
    async (family) => {
      await auth.revokeFamily(family);
      await state.tokens.revokeFamily(family);
    },
  );

  const ops: Record<string, (...args: never[]) => unknown> = {
    ...storeOps,
    ...auth.ops,
    lifecycle: () => state.connections.applyDue(),
    'delivery.outcome': (...a: Parameters<typeof state.dispatcher.applyOutcome>) => state.dispatcher.applyOutcome(...a),
    handler: (routeId: string, ref: string, snapshot: CtxSnapshot) => {
      const handler = bound.get(routeId);
      if (!handler) throw new Error(`no handler ${routeId}`);
      const ctx = pending.get(ref) ?? rebuildContext(routeId, snapshot);
      return snapshot.idempotencyKey && snapshot.access ? idem.record(applyingId, () => handler(ctx)) : handler(ctx);
    },
    control: (name: string, args: unknown[]) =>
      (control as unknown as Record<string, (...a: unknown[]) => unknown>)[name]?.(...args),
  };
  const apply = (e: LogEntry) => {
    applying = true;
    applyingId = e.id;
    try {
      return clock.during(e.at, () => withSeededIds(e.seed, () => ops[e.op]?.(...(e.args as never[]))));
    } finally {
      applying = false;
    }
  };

  const sharedControl = shareControl(control, log, engine, state.clock);

  const wrapHandler = (routeId: string, handler: Handler): Handler => {
    if (!WRITING_ROUTES.has(routeId)) return handler;
    bound.set(routeId, handler);
    return async (ctx) => {
      const ref = newId('ref', 9);
      pending.set(ref, ctx);
      const snapshot: CtxSnapshot = snapshotOf(ctx);
      try {
        const args = [routeId, ref, snapshot];
        if (snapshot.idempotencyKey && snapshot.access) return await idem.submit(ctx, 'handler', args);
        // The snapshot is plain JSON (snapshotOf): applied here from the object, not parsed back.
        return await log.submit<Awaited<ReturnType<Handler>>>('handler', args, ctx.at, { plain: true });
      } finally {
        pending.delete(ref);
      }
    };
  };

  // Transitions that fell due: one replicated operation (whoever notices first; a second is a no-op).
  let ticking: Promise<unknown> | undefined;
  const tickIfDue = (): MaybePromise<unknown> =>
    andThen(state.connections.nextDue(), (due) => {
      if (due === undefined || due > clock.now()) return undefined;
      ticking ??= log.submit('lifecycle', [], clock.now()).finally(() => (ticking = undefined));
      return ticking;
    });
  const timer = setInterval(() => {
    const ticked = tickIfDue();
    if (ticked instanceof Promise) ticked.catch(() => {});
  }, 100);
  timer.unref();

  // Log compaction: a replica started after a snapshot builds its stores from it (openSandboxState)
  // and takes up here what the snapshot keeps outside them; the log is read on from its id.
  const rateLimits = state.rateLimits as unknown as SharedRateLimits;
  const extras = store.snapshot?.extras as Partial<SnapshotParts> | undefined;
  if (extras?.faults)
    for (const { id: _, ...f } of extras.faults) state.faults.add({ ...f, remaining: f.remaining ?? Infinity });
  if (extras?.rateLimits) rateLimits.importState(extras.rateLimits);
  if (extras?.outcomes) idem.restore(extras.outcomes);
  if (extras?.families) auth.trails.restore(extras.families);
  // A replica keeps its faults in memory (the log replicates them), so a snapshot reads them at once.
  const faultsNow = () => {
    const faults = state.faults.list();
    if (faults instanceof Promise) throw new Error('a replica keeps its faults in memory');
    return faults;
  };
  const takeSnapshot = () =>
    JSON.stringify({
      stores: store.persistence.dump(),
      faults: faultsNow(),
      rateLimits: rateLimits.exportState(),
      outcomes: idem.dump(),
      families: auth.trails.dump(),
    } satisfies SnapshotParts & { stores: unknown });
  let started: Promise<void> | undefined;
  const start = () =>
    (started ??= log
      .start(apply, {
        ...(store.snapshot ? { from: store.snapshot.id } : {}),
        afterBatch: compactor(engine, log, store.compactEvery, takeSnapshot, store.compactGrows),
      })
      .catch((err: unknown) => {
        // Named like a damaged snapshot: which store and which key, not only the client's bare words.
        throw new Error(
          `the operation log of the shared store at ${engine.url} (key ${log.key}) does not load: ${(err as Error)?.message ?? String(err)}`,
        );
      }));

  /** Every call first catches up with the log (so it sees every write acknowledged before it, on any replica). */
  const wrapCore = (core: Core): Core => ({
    ...core,
    async handle(req) {
      try {
        await start();
        await log.sync();
        await tickIfDue();
      } catch {
        return unavailable(core, engine);
      }
      let res = await core.handle(req);
      try {
        res = await single.settle(req, res);
        await log.drain();
      } catch {
        return unavailable(core, engine);
      }
      return res;
    },
  });

  const close = state.close;
  state.close = async () => {
    clearInterval(timer);
    await log.close();
    await close();
    await engine.close();
  };
  return { wrapHandler, wrapCore, wrapAuthStores: auth.wrap, control: sharedControl, start };
}
