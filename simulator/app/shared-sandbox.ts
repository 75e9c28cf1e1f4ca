// The shared sandbox: several `ncs serve` processes on one Redis. Each replica keeps the whole state
// in memory, as a single sandbox does, and changes it only by applying the operations of one log (a
// Redis stream) in the same order as every other replica, with the operation's own time and id seed:
// connections, stream numbers, audit chains, receivers, deliveries, tokens, clock and faults come out
// alike everywhere. What must be decided once across replicas at the moment of a call is decided in
// Redis itself: idempotency records (set-if-absent with an in-flight lease), rate-limit counters and
// the lease of each webhook attempt.
import { ROUTES } from '../contract/route-table.ts';
import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import type { ControlOperations, ControlPort } from '../control/operations.ts';
import { newContext, type RequestContext } from '../core/context.ts';
import type { PlainResponse } from '../core/types.ts';
import type { Handler } from '../handlers/types.ts';
import type { Clock } from '../lib/clock.ts';
import { newId, withSeededIds } from '../lib/ids.ts';
import type { FaultCall } from '../state/fault-store.ts';
import { createOpLog, type LogEntry, type OpLog } from '../state/redis/op-log.ts';
import { connectRedis, type RedisEngine, StoreUnavailableError } from '../state/redis/redis-engine.ts';
import { clearSharedRecords, createRedisIdempotencyStore } from '../state/redis/redis-idempotency.ts';
import { createRedisRateLimits } from '../state/redis/redis-rate-limit.ts';
import type { RateLimitSettings } from '../state/rate-limit-store.ts';
import { hashToken } from '../state/token-store.ts';
import type { Core } from './create-core.ts';
import { replayClock, type ReplayClock } from './replay-clock.ts';
import { shareAuthStores } from './shared-auth.ts';
import type { SandboxState, SharedStores } from './sandbox-state.ts';

export { replayClock, type ReplayClock };

/** A connected shared store: `ncs serve --store redis://…` (or NCS_STORE). */
export interface SharedStore {
  engine: RedisEngine;
  log: OpLog;
  /**
   * What createSandbox wires in (carried by the store, so the default path never loads this module:
   * `serve` imports it only for `--store`).
   */
  wiring: { replayClock: typeof replayClock; sharedStoresOf: typeof sharedStoresOf; shareSandbox: typeof shareSandbox };
  /** A store of its own under this one's prefix (a per-run namespace), on new connections. */
  namespace(name: string): Promise<SharedStore>;
}

/**
 * Connects to Redis; unreachable is an Error naming the URL (ncs serve prints it and exits 2).
 * @example const shared = await openSharedStore('redis://127.0.0.1:6379/0'); createSandbox({ shared });
 */
export async function openSharedStore(url: string): Promise<SharedStore> {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`--store takes a redis:// or rediss:// URL (got "${url}")`);
  // ?prefix=<name> keeps several sandboxes apart on one Redis database (keys under ncs:<name>:).
  const parsed = new URL(url);
  const name = parsed.searchParams.get('prefix');
  if (name !== null && !/^[A-Za-z0-9._-]{1,64}$/.test(name))
    throw new Error(`--store: prefix must be 1-64 letters, digits, . _ - (got "${name}")`);
  parsed.searchParams.delete('prefix');
  return connectStore(parsed.toString(), name ? `ncs:${name}:` : 'ncs:');
}

async function connectStore(url: string, prefix: string): Promise<SharedStore> {
  const engine = await connectRedis(url, { prefix });
  return {
    engine,
    log: createOpLog(engine),
    namespace: (name) => connectStore(url, `${prefix}${name}:`),
    wiring: { replayClock, sharedStoresOf, shareSandbox },
  };
}

/** The stores kept in Redis itself, for createSandboxState. */
export function sharedStoresOf(store: SharedStore, clock: Clock, ttlMs?: number): SharedStores {
  const { engine, log } = store;
  return {
    idempotency: (c) => createRedisIdempotencyStore(engine, c, ttlMs !== undefined ? { ttlMs } : {}),
    rateLimits: (c, initial: RateLimitSettings | false | undefined) => createRedisRateLimits(engine, c, initial),
    coordinator(timeoutMs) {
      const leaseMs = (timeoutMs ?? WEBHOOK_DEFAULTS.timeoutMs) + 2000;
      return {
        leaseMs,
        async claim(id, sequence, attempt) {
          // Replaying the log at start-up re-creates old deliveries: their outcomes follow in the log, so
          // nothing is claimed before the replay is over (the dispatcher then skips what was settled).
          await log.caughtUp();
          const key = `${engine.prefix}lease:${id}:${sequence}:${attempt}`;
          return (await engine.command(['SET', key, engine.replicaId, 'NX', 'PX', leaseMs])) === 'OK';
        },
        share(id, attempt, outcome, delay) {
          // Lost with Redis: the lease runs out and another replica makes the attempt again.
          log.submit('delivery.outcome', [id, attempt, outcome, delay], clock.now()).catch(() => {});
        },
      };
    },
  };
}

/** Public routes whose handler writes: run through the log, so every replica applies the same write. */
const WRITING_ROUTES = new Set(['createConnection', 'createWebhook', 'deleteWebhook', 'redeliver']);
/** Control operations that change state. */
const WRITING_CONTROL = [
  'reset',
  'setConnectionState',
  'advanceClock',
  'addFault',
  'clearFaults',
  'setStatus',
  'trigger',
  'setRateLimit',
  'redeliver',
] as const satisfies readonly (keyof ControlOperations)[];

interface CtxSnapshot {
  method: string;
  path: string;
  requestId: string;
  at: number;
  version: RequestContext['version'];
  params: RequestContext['params'];
  query: RequestContext['query'];
  body: unknown;
  access: RequestContext['access'];
  idempotencyKey: string | undefined;
}

/**
 * Turns one replica's state into a member of the shared sandbox: wraps the writing stores, handlers and
 * control operations so their changes go through the log, and returns what createSandbox wires in.
 */
export function shareSandbox(state: SandboxState, store: SharedStore, clock: ReplayClock, control: ControlOperations) {
  const { log, engine } = store;
  const base = { tokens: state.tokens, faults: state.faults, rateLimits: state.rateLimits };
  const bound = new Map<string, Handler>();
  const pending = new Map<string, RequestContext>();
  // While an operation of the log is applied, the wrapped stores change this replica only: the
  // operation itself is what every replica applies.
  let applying = false;
  const share = (op: string, args: unknown[]) => {
    if (!applying) log.share(op, args, clock.now());
  };

  // Tokens, a signature fault's use and rate-limit settings apply here at once and are then shared
  // (no numbering depends on them); a response waits until they are in Redis (`drain`).
  state.tokens = {
    ...base.tokens,
    issue(grant) {
      const r = base.tokens.issue(grant);
      share('tokens.put', [hashToken(r.token), r.record]);
      return r;
    },
    revoke(token) {
      share('tokens.revoke', [hashToken(token)]);
      return base.tokens.revoke(token);
    },
    revokeFamily(family) {
      share('tokens.revokeFamily', [family]);
      return base.tokens.revokeFamily(family);
    },
    revokeClient(clientId) {
      share('tokens.revokeClient', [clientId]);
      base.tokens.revokeClient(clientId);
    },
  };
  const faults = {
    ...base.faults,
    take(call: FaultCall) {
      // Nothing armed anywhere (the log would have told us): no round trip.
      if (applying || base.faults.list().length === 0) return base.faults.take(call);
      return log.submit<ReturnType<typeof base.faults.take>>('faults.take', [call], clock.now());
    },
    takeSignatureSkew(receiverId: string) {
      const ms = base.faults.takeSignatureSkew(receiverId);
      if (ms) share('faults.skew', [receiverId]);
      return ms;
    },
  };
  state.faults = faults as typeof state.faults;
  state.rateLimits = {
    ...base.rateLimits,
    configure(settings) {
      base.rateLimits.configure(settings);
      share('rateLimits.configure', [settings]);
    },
  };

  // The OAuth server's codes and refresh families: applied here at once, shared by hash.
  const auth = shareAuthStores(share);

  const rebuild = (routeId: string, s: CtxSnapshot): RequestContext => {
    const ctx = newContext({ method: s.method, path: s.path, query: {}, headers: {} }, s.requestId, s.at);
    const route = ROUTES.find((r) => r.id === routeId);
    return Object.assign(ctx, {
      version: s.version,
      params: s.params,
      query: s.query,
      body: s.body,
      ...(route ? { route } : {}),
      ...(s.access ? { access: s.access } : {}),
      ...(s.idempotencyKey ? { idempotencyKey: s.idempotencyKey } : {}),
    });
  };

  const ops: Record<string, (...args: never[]) => unknown> = {
    'tokens.put': (h: string, record: Parameters<typeof base.tokens.put>[1]) => base.tokens.put(h, record),
    'tokens.revoke': (h: string) => base.tokens.revokeHash(h),
    'tokens.revokeFamily': (family: string) => base.tokens.revokeFamily(family),
    'tokens.revokeClient': (clientId: string) => base.tokens.revokeClient(clientId),
    'faults.take': (call: FaultCall) => base.faults.take(call),
    'faults.skew': (receiverId: string) => base.faults.takeSignatureSkew(receiverId),
    'rateLimits.configure': (s: RateLimitSettings | false) => base.rateLimits.configure(s),
    ...auth.ops,
    lifecycle: () => state.connections.applyDue(),
    'delivery.outcome': (...a: Parameters<typeof state.dispatcher.applyOutcome>) => state.dispatcher.applyOutcome(...a),
    handler: (routeId: string, ref: string, snapshot: CtxSnapshot) => {
      const handler = bound.get(routeId);
      if (!handler) throw new Error(`no handler ${routeId}`);
      return handler(pending.get(ref) ?? rebuild(routeId, snapshot));
    },
    control: (name: string, args: unknown[]) =>
      (control as unknown as Record<string, (...a: unknown[]) => unknown>)[name]?.(...args),
  };
  const apply = (e: LogEntry) => {
    applying = true;
    try {
      return clock.during(e.at, () => withSeededIds(e.seed, () => ops[e.op]?.(...(e.args as never[]))));
    } finally {
      applying = false;
    }
  };

  const sharedControl: ControlPort = { ...control };
  for (const name of WRITING_CONTROL) {
    (sharedControl as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const result = await log.submit('control', [name, args], clock.now());
      if (name === 'reset') await clearSharedRecords(engine);
      return result;
    };
  }

  const wrapHandler = (routeId: string, handler: Handler): Handler => {
    if (!WRITING_ROUTES.has(routeId)) return handler;
    bound.set(routeId, handler);
    return async (ctx) => {
      const ref = newId('ref', 9);
      pending.set(ref, ctx);
      const snapshot: CtxSnapshot = {
        method: ctx.req.method,
        path: ctx.req.path,
        requestId: ctx.requestId,
        at: ctx.at,
        version: ctx.version,
        params: ctx.params,
        query: ctx.query,
        body: ctx.body,
        access: ctx.access,
        idempotencyKey: ctx.idempotencyKey,
      };
      try {
        return await log.submit<Awaited<ReturnType<Handler>>>('handler', [routeId, ref, snapshot], ctx.at);
      } finally {
        pending.delete(ref);
      }
    };
  };

  // Transitions that fell due: one replicated operation (whoever notices first; a second is a no-op).
  let ticking: Promise<unknown> | undefined;
  const tickIfDue = () => {
    const due = state.connections.nextDue();
    if (due === undefined || due > clock.now()) return undefined;
    ticking ??= log.submit('lifecycle', [], clock.now()).finally(() => (ticking = undefined));
    return ticking;
  };
  const timer = setInterval(() => void tickIfDue()?.catch(() => {}), 100);
  timer.unref();

  let started: Promise<void> | undefined;
  const start = () => (started ??= log.start(apply));

  /** Every call first catches up with the log (so it sees every write acknowledged before it, on any replica). */
  const wrapCore = (core: Core): Core => ({
    ...core,
    async handle(req) {
      try {
        await start();
        await log.sync();
        await tickIfDue();
      } catch {
        return unavailable(core, engine.url);
      }
      const res = await core.handle(req);
      try {
        await log.drain();
      } catch {
        return unavailable(core, engine.url);
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

/** 503 with the failure envelope and a hint (the request id stays the one support needs). */
function unavailable(core: Core, url: string): PlainResponse {
  const e = new StoreUnavailableError(`Redis at ${url} does not answer.`);
  const res = core.reject('internal', e.detail ?? '');
  const body = JSON.parse(res.body ?? '{}') as { error?: object };
  body.error = { ...body.error, message: e.message, hint: e.hint };
  return { ...res, status: 503, headers: { ...res.headers, 'retry-after': '1' }, body: JSON.stringify(body) };
}
