import type { RequestContext } from '../core/context.ts';

// Where a call came from as the rules compare calls: its route as the service routes it, and how long the
// connection it opened lay idle (a pool's connection opened ahead of need).

/**
 * How long the connection a call opened lay idle before it (0: not its first call, or unknown). The server
 * stamps a connection on the sandbox clock as it accepts it, so time the control plane advanced counts.
 */
export function idleBefore(ctx: RequestContext, at: number): number {
  const c = ctx.req.connection;
  return c?.first && c.acceptedAt !== undefined ? Math.max(0, at - c.acceptedAt) : 0;
}

/**
 * A path as the service routes it: without trailing slashes. A retry sent to `/providers/` after `/providers`
 * is the same call to the same route (the service answers both alike); `//providers` is another path (the
 * service answers it 404), so a call fixed from it is a new call, not a retry.
 * @example routeSpelling('/api/public/v1/providers/') // '/api/public/v1/providers'
 */
export function routeSpelling(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed || '/';
}
