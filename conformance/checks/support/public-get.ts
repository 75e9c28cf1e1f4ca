import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';

/**
 * A GET without credentials, made once per run and shared by every check that reads it (the
 * self-description and the OpenAPI document are read by many checks).
 */
export function publicGet(ctx: CheckContext, path: string): Promise<Exchange> {
  return ctx.shared(`public-get ${path}`, () => ctx.call('GET', path, { credentials: 'none' }));
}
