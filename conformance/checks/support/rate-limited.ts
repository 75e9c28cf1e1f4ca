import { ERROR_TABLE } from '../../../simulator/contract/errors.ts';
import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext, TargetInfo } from '../../runner/check.ts';
import type { DeploymentProfile } from '../../runner/deployment-profile.ts';
import { armFault, armed as isArmed } from './arm-fault.ts';
import { authenticatedGet } from './error-probes.ts';

// One 429 per run, shared by the checks that judge it (rate-limit.retry-after, rate-limit.retry-after-seconds):
// provoked through the sandbox control plane when there is one with an admin token, else by the bounded burst
// the deployment profile allows (never a flood of a deployment that allows none).

/** The 429 of the run and the path it came from (a call on that path again tells when calls are accepted). */
export type RateLimited = { ex: Exchange; path: string; how: 'armed' | 'burst'; alt?: Exchange } | { skip: string };

/** Whether the run's 429 comes from a burst (which spends the window: the checks then run last). */
export const burstsRateLimit = ({ deployment, target }: { deployment: DeploymentProfile; target: TargetInfo }) =>
  !(deployment.controlPlanePath !== null && target.hasAdminToken) && Boolean(deployment.rateLimitBurst);

/**
 * The run's 429, provoked once and shared, or why there is none.
 * @example const r = await provokeRateLimit(ctx); if ('skip' in r) ctx.skip(r.skip);
 */
export function provokeRateLimit(ctx: CheckContext): Promise<RateLimited> {
  return ctx.shared('rate-limited-429', () => provoke(ctx));
}

async function provoke(ctx: CheckContext): Promise<RateLimited> {
  const plane = ctx.deployment.controlPlanePath !== null && ctx.target.hasAdminToken;
  const burst = ctx.deployment.rateLimitBurst;
  const armed = plane ? await armedRateLimit(ctx) : undefined;
  if (armed?.ex) {
    const alt = ctx.target.altBaseUrl ? await armedRateLimit(ctx, 'alt') : undefined;
    return { ex: armed.ex, path: armed.path, how: 'armed', ...(alt?.ex ? { alt: alt.ex } : {}) };
  }
  if (burst) {
    const ex = await burstRateLimit(ctx, burst.maxCalls, burst.maxMillis);
    // The same interface at the alternate address, at once: a 429 there is judged too (whether the two
    // addresses share a window is the deployment's choice: a success there is not judged).
    const alt =
      ex && ctx.target.altBaseUrl
        ? await ctx.call('GET', authenticatedGet().path, { retry: false, base: 'alt' })
        : undefined;
    return ex
      ? {
          ex,
          path: authenticatedGet().path,
          how: 'burst',
          ...(alt?.status === ERROR_TABLE.rate_limited.status ? { alt } : {}),
        }
      : {
          skip: `no 429 within the burst the deployment profile allows (rateLimitBurst: ${burst.maxCalls} calls, ${burst.maxMillis} ms): the limit is higher than that, or calls are given back as fast as the burst makes them (a bucket refilled continuously)`,
        };
  }
  // Said as it is: a profile that declared null, or no profile field at all (the kit's default is no burst).
  const noBurst = ctx.declared('rateLimitBurst')
    ? 'the deployment profile allows no burst (rateLimitBurst: null)'
    : 'no deployment profile allows a burst (declare rateLimitBurst to let the kit provoke one)';
  const why = armed
    ? `the control plane did not arm a rate_limited fault (POST ${ctx.deployment.controlPlanePath}/faults answered ${armed.armedStatus}) and ${noBurst}`
    : ctx.deployment.controlPlanePath === null
      ? `no sandbox control plane (controlPlanePath: null) and ${noBurst}`
      : `no admin token for the sandbox control plane (pass --admin-token), and ${noBurst}`;
  return {
    skip: `${why}: the kit does not flood a deployment to provoke a 429 (the 429s the run meets anyway are judged by generated.rate-limited-wait)`,
  };
}

/** A 429 provoked through the control plane's fault injection (ex absent when the fault did not arm), and the arming call's status. */
async function armedRateLimit(
  ctx: CheckContext,
  base: 'main' | 'alt' = 'main',
): Promise<{ ex?: Exchange; path: string; armedStatus: number }> {
  // A path only this check calls, so no concurrent check takes the armed fault.
  const path = `${BASE_PATH}/connections/${ctx.label(base === 'alt' ? 'rate-limit-probe-alt' : 'rate-limit-probe')}`;
  const armed = await armFault(ctx, { kind: 'rate_limited', method: 'GET', route: path, count: 1 });
  if (!isArmed(armed)) return { path, armedStatus: armed.status };
  const ex = await ctx.call('GET', path, { retry: false, base });
  if (base === 'alt')
    return ex.status === ERROR_TABLE.rate_limited.status
      ? { ex, path, armedStatus: armed.status }
      : { path, armedStatus: armed.status };
  ctx.require(ex.status === ERROR_TABLE.rate_limited.status, {
    expected: `GET ${path} after arming a rate_limited fault answers 429`,
    exchange: ex,
  });
  return { ex, path, armedStatus: armed.status };
}

/** Calls of a burst sent at once at most (the window's remaining calls, when the deployment reports them). */
const MAX_BURST_WIDTH = 500;

/**
 * The first 429 of a burst within the deployment profile's bounds (rateLimitBurst), or undefined when none came.
 * Ten at a time, then twice as many each time, or at once as many as the answers' X-RateLimit-Remaining says the
 * window has left and one more (at most MAX_BURST_WIDTH): a slow machine sending ten at a time may see a short
 * window reset before it is spent.
 */
async function burstRateLimit(ctx: CheckContext, maxCalls: number, maxMillis: number): Promise<Exchange | undefined> {
  const path = authenticatedGet().path;
  const until = Date.now() + maxMillis;
  let width = 10;
  for (let sent = 0; sent < maxCalls && Date.now() < until; ) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(width, maxCalls - sent) }, () => ctx.call('GET', path, { retry: false })),
    );
    sent += batch.length;
    const limited = batch.find((ex) => ex.status === ERROR_TABLE.rate_limited.status);
    if (limited) return limited;
    const left = Math.min(
      ...batch.map((ex) => Number(ex.headers['x-ratelimit-remaining'])).filter((n) => Number.isInteger(n) && n >= 0),
    );
    // Twice as wide each time, or as wide as the window's remaining calls and one more: on a loaded machine a
    // batch the width of the remaining calls can straddle a short window's reset, and the next one again.
    width = Math.min(MAX_BURST_WIDTH, Math.max(width * 2, Number.isFinite(left) ? left + 1 : 0));
  }
  return undefined;
}
