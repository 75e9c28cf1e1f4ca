import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';

/**
 * Arms a fault on the deployment's control plane (the profile's controlPlanePath, the simulator's `/_sandbox`)
 * with the admin token; the arming answer, which the caller judges (a 2xx: armed). The one way the kit
 * provokes a refusal it cannot cause with a request (a 429 below the limit, a 500).
 * @example const armed = await armFault(ctx, { kind: 'internal', method: 'GET', route: path, count: 2 });
 */
export function armFault(ctx: CheckContext, fault: Record<string, unknown>): Promise<Exchange> {
  return ctx.call('POST', `${ctx.deployment.controlPlanePath}/faults`, { credentials: 'admin', json: fault });
}

/** Whether an arming answer armed the fault. */
export const armed = (ex: Exchange) => ex.status >= 200 && ex.status < 300;
