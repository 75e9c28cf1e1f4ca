import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { routeOf } from '../rules/exchange-scope.ts';
import type { CheckContext } from '../runner/check.ts';

const header = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

/**
 * Meta's idempotencyKey is "the key used for the call" on every answer with an envelope, not only on the
 * interface's routes: a call to a path the deployment adds under the interface (its delivery log's
 * redelivery, found through the profile or discovery) sent with a key and answered with another one
 * reports a key that call did not use. Part of generated.idempotency-key-echo (its route rule judges the rest).
 * @example judgeKeyEchoOffRoute(ctx) // fails when POST .../deliveries/d2/redeliver echoes d1's key
 */
export function judgeKeyEchoOffRoute(ctx: CheckContext): void {
  const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
  const offenders = ctx.exchanges().filter(({ ex }) => {
    if (!bases.some((b) => ex.url.startsWith(`${b}${BASE_PATH}/`)) || routeOf(ex, bases)) return false;
    const sent = header(ex.requestHeaders, 'idempotency-key');
    const echoed = (ex.json as { meta?: { idempotencyKey?: unknown } } | undefined)?.meta?.idempotencyKey;
    return sent !== undefined && echoed !== undefined && echoed !== sent;
  });
  const first = offenders[0];
  if (!first) return;
  const echoed = (first.ex.json as { meta: { idempotencyKey: unknown } }).meta.idempotencyKey;
  ctx.fail({
    expected: `${first.ex.method} ${new URL(first.ex.url).pathname} (a path beyond the interface's routes): meta.idempotencyKey is the key sent with the call`,
    observed: `meta.idempotencyKey ${JSON.stringify(echoed)}, the key sent was ${JSON.stringify(header(first.ex.requestHeaders, 'idempotency-key'))} (${offenders.length} answers; made by ${[...new Set(offenders.map((o) => o.check))].slice(0, 4).join(', ')})`,
    exchange: first.ex,
  });
}
