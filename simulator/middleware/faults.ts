import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError } from '../core/api-error.ts';
import { defineStep } from '../core/step.ts';
import type { FaultPort } from '../state/fault-store.ts';

/**
 * Faults armed through the control plane for the next N matching calls: 500 internal, 429
 * rate_limited with Retry-After, or added latency before the call goes on.
 */
export function faultStep(faults: FaultPort) {
  return defineStep({
    name: 'faults',
    requires: ['route'],
    async run(ctx, next) {
      const taken = faults.take({
        method: ctx.req.method,
        path: ctx.req.path,
        routeId: ctx.route.id,
        routePath: ctx.route.path,
      });
      // Memory answers at once; a shared sandbox takes the use across replicas (a promise).
      const fault = taken instanceof Promise ? await taken : taken;
      if (!fault) return next();
      if (fault.kind === 'internal')
        throw new ApiError('internal', { detail: 'Injected by the sandbox control plane.' });
      if (fault.kind === 'rate_limited') {
        const seconds = fault.retryAfterSeconds ?? 1;
        throw new ApiError('rate_limited', {
          detail: 'Injected by the sandbox control plane.',
          headers: { 'retry-after': String(seconds) },
        });
      }
      await sleep(fault.latencyMs ?? 0);
      return next();
    },
  });
}
