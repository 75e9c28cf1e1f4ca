import { ROUTES } from '../contract/route-table.ts';
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

/** The segments of each route template with path parameters (`{connectionId}`), as the service routes them. */
const TEMPLATES: readonly string[][] = ROUTES.filter((r) => r.path.includes('{')).map((r) => r.path.split('/'));
const isParam = (segment: string) => segment.startsWith('{');

/** A path parameter as the service reads it (percent-decoded), a `/` or `%` in it written encoded again. */
function decodedParam(segment: string): string {
  try {
    return decodeURIComponent(segment).replace(/[%/]/g, encodeURIComponent);
  } catch {
    return segment; // malformed escapes: left as sent
  }
}

/**
 * A path as the service routes it: without trailing slashes, and with its path parameters percent-decoded as
 * the router decodes them (`/connections/con%5F1` reads connection `con_1`). A retry sent to `/providers/` after
 * `/providers`, or to an id spelled with escapes after the plain id, is the same call to the same route (the
 * service answers both alike); `//providers` or an escaped literal segment (`%70roviders`) is another path (the
 * service answers it 404), so a call fixed from it is a new call, not a retry.
 * @example routeSpelling('/api/public/v1/providers/') // '/api/public/v1/providers'
 * @example routeSpelling('/api/public/v1/connections/con%5F1') // '/api/public/v1/connections/con_1'
 */
export function routeSpelling(path: string): string {
  const trimmed = path.replace(/\/+$/, '') || '/';
  if (!trimmed.includes('%')) return trimmed;
  const segments = trimmed.split('/');
  const template = TEMPLATES.find(
    (t) => t.length === segments.length && t.every((s, i) => isParam(s) || s === segments[i]),
  );
  return template ? segments.map((s, i) => (isParam(template[i] ?? '') ? decodedParam(s) : s)).join('/') : trimmed;
}
