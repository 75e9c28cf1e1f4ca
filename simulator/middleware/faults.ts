import type { RouteDef } from '../contract/route-def.ts';
import { BASE_PATH } from '../contract/versions.ts';
import { ApiError } from '../core/api-error.ts';
import type { RequestContext } from '../core/context.ts';
import { failure } from '../core/envelope.ts';
import type { Next } from '../core/pipeline.ts';
import { isDataReply, type RawReply, type Reply, raw } from '../core/reply.ts';
import { defineStep } from '../core/step.ts';
import type { Fault, FaultPort } from '../services/fault-service.ts';
import { applyStreamFault, cursorOf, REAL_TIMING, type StreamFaultDeps, waitFor } from './stream-faults.ts';

const INJECTED = 'Injected by the sandbox control plane.';
/** How long a commit_then_fail fault with failWith timeout holds the answer before dropping the connection. */
export const DEFAULT_HOLD_MS = 10_000;

/**
 * 503 with the failure envelope (code internal), as a gateway in front of the service answers when the
 * service is briefly away. The interface's table has no 503; clients treat it as a transport failure.
 */
export function unavailable(ctx: RequestContext, retryAfterSeconds?: number): RawReply {
  const res = failure(ctx, new ApiError('internal', { detail: `${INJECTED} The service is briefly unavailable.` }));
  res.status = 503;
  if (retryAfterSeconds !== undefined) res.headers['retry-after'] = String(retryAfterSeconds);
  return raw(res);
}

/** A dropped connection: the adapters destroy the socket (node:http) or answer a network error (MSW). */
const dropped = (): RawReply => raw({ status: 0, headers: {}, abort: true });

/** The answer of a commit_then_fail fault, after the call itself was answered (and its write committed). */
async function afterCommit(ctx: RequestContext, fault: Fault, res: Reply, deps: StreamFaultDeps): Promise<Reply> {
  const status = isDataReply(res) ? res.status : res.raw.status;
  if (status < 200 || status >= 300) return res; // nothing was committed: the real answer stands
  switch (fault.failWith ?? 'internal') {
    case 'internal':
      throw new ApiError('internal', { detail: `${INJECTED} The call was committed.` });
    case 'unavailable':
      return unavailable(ctx);
    case 'timeout':
      // Held on the sandbox clock: advancing it past holdMs drops the connection at once.
      await waitFor(deps.timing ?? REAL_TIMING, fault.holdMs ?? DEFAULT_HOLD_MS);
      return dropped();
    case 'drop':
      return dropped();
  }
}

/** cursor_expired only counts stream reconnects that carry a cursor. */
const STREAM_PATH = `${BASE_PATH}/stream`;

/**
 * Faults armed through the control plane for matching calls (route, method, tenant; a count or a
 * duration): 500 internal, 429 rate_limited with Retry-After, 503, added latency, commit_then_fail (the
 * call runs and commits, then the answer is a 500, a 503, a dropped connection or a timeout, so only a
 * retry with the same key gets the outcome), and the stream faults of `stream-faults.ts`. Held answers,
 * latency and stream windows run on `deps.timing` (the sandbox clock and timeline; real time without).
 * @example pipeline([versionStep(), routeMatchStep(router), faultStep(state.faults, { feeds: state.feeds })])
 */
export function faultStep(
  faults: FaultPort & StreamFaultDeps['faults'],
  deps: Partial<Omit<StreamFaultDeps, 'faults'>> = {},
) {
  const streamDeps: StreamFaultDeps = { faults, ...deps };
  return defineStep({
    name: 'faults',
    requires: ['route'],
    // Not async: nearly every call has no fault armed and passes on without a promise of its own.
    run(ctx, next) {
      const taken = faults.take({
        method: ctx.req.method,
        path: ctx.req.path,
        routeId: ctx.route.id,
        routePath: ctx.route.path,
        tenant: ctx.req.headers['x-service-tenant'],
        cursorSent: ctx.req.path === STREAM_PATH && cursorOf(ctx) !== undefined,
      });
      // Memory answers at once; a shared sandbox takes the use across replicas (a promise).
      if (taken instanceof Promise)
        return taken.then((fault) => (fault ? applyFault(ctx, fault, next, streamDeps) : next()));
      return taken ? applyFault(ctx, taken, next, streamDeps) : next();
    },
  });
}

/** What an armed fault does to the call it was taken by (outside the step: no closure per call). */
async function applyFault(
  ctx: RequestContext & { route: RouteDef },
  fault: Fault,
  next: Next,
  streamDeps: StreamFaultDeps,
): Promise<Reply> {
  switch (fault.kind) {
    case 'internal':
      throw new ApiError('internal', { detail: INJECTED });
    case 'rate_limited':
      // A limit reached: no call left in the window, whatever the real count says.
      if (ctx.responseHeaders['x-ratelimit-remaining'] !== undefined)
        ctx.responseHeaders['x-ratelimit-remaining'] = '0';
      throw new ApiError('rate_limited', {
        detail: INJECTED,
        headers: { 'retry-after': String(fault.retryAfterSeconds ?? 1) },
      });
    case 'unavailable':
      return unavailable(ctx, fault.retryAfterSeconds);
    case 'commit_then_fail':
      return afterCommit(ctx, fault, await next(), streamDeps);
    case 'latency':
      // On the sandbox clock, like every fault window: real time, or sooner when the clock is advanced.
      if (fault.latencyMs) await waitFor(streamDeps.timing ?? REAL_TIMING, fault.latencyMs);
      return next();
    case 'stream_cut':
    case 'stream_stall':
    case 'stream_restart':
    case 'cursor_expired':
      return applyStreamFault(ctx, fault, next, streamDeps);
    default:
      return next();
  }
}
