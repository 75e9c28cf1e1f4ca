import type { Clock } from '../lib/clock.ts';
import { ROUTES } from '../contract/route-table.ts';
import type { ControlOperations, ControlPort } from '../control/operations.ts';
import { newContext, type RequestContext } from '../core/context.ts';
import type { PlainResponse } from '../core/types.ts';
import type { OpLog } from '../state/redis/op-log.ts';
import { type RedisEngine, StoreUnavailableError } from '../state/redis/redis-engine.ts';
import { clearSharedRecords } from '../state/redis/redis-idempotency.ts';
import type { Core } from './create-core.ts';

/** Public routes whose handler writes: run through the log, so every replica applies the same write. */
export const WRITING_ROUTES = new Set(['createConnection', 'createWebhook', 'deleteWebhook', 'redeliver']);
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

export interface CtxSnapshot {
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

/** What a writing call carries through the log: enough to rebuild its context on another replica. */
export function snapshotOf(ctx: RequestContext): CtxSnapshot {
  return {
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
}

/** The request context of a call made on another replica, rebuilt from its snapshot. */
export function rebuildContext(routeId: string, s: CtxSnapshot): RequestContext {
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
}

/** The control operations with every writing one submitted to the log (reset also clears Redis' records). */
export function shareControl(control: ControlOperations, log: OpLog, engine: RedisEngine, clock: Clock): ControlPort {
  const sharedControl: ControlPort = { ...control };
  for (const name of WRITING_CONTROL) {
    (sharedControl as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const result = await log.submit('control', [name, args], clock.now());
      if (name === 'reset') await clearSharedRecords(engine);
      return result;
    };
  }
  return sharedControl;
}

/** 500 (or the URL's `?outage=503`) internal with the failure envelope, a hint and Retry-After (see StoreUnavailableError; the request id stays the one support needs). */
export function unavailable(core: Core, engine: Pick<RedisEngine, 'url' | 'outageStatus'>): PlainResponse {
  const e = new StoreUnavailableError(`Redis at ${engine.url} does not answer.`, engine.outageStatus);
  const res = core.reject('internal', e.detail ?? '');
  const body = JSON.parse(res.body ?? '{}') as { error?: object };
  body.error = { ...body.error, message: e.message, hint: e.hint };
  return { ...res, status: e.status, headers: { ...res.headers, 'retry-after': '1' }, body: JSON.stringify(body) };
}
