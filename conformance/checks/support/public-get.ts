import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';

/** Where a run keeps its read of `path` (the run's preflight puts its own reads of the same GETs there). */
export const publicGetKey = (path: string) => `public-get ${path}`;

/**
 * A GET without credentials, made once per run and shared by every check that reads it (the
 * self-description and the OpenAPI document are read by many checks).
 */
export function publicGet(ctx: CheckContext, path: string): Promise<Exchange> {
  return ctx.shared(publicGetKey(path), () => ctx.call('GET', path, { credentials: 'none' }));
}
