// Calls made from a browser context, noted for auth.no-browser-credentials ("Access credentials stay in the
// partner's backend and are never sent from a browser").
import type { AccessToken, RequestContext } from '../core/context.ts';
import { browserFetchMetadata } from '../lib/browser-request.ts';
import type { Observations } from './observation.ts';

/**
 * Credentials from a browser context: Authorization with Origin, a bearer token in the query (RFC 6750's
 * `access_token`, the only way EventSource can send one) with Origin, either of them with a browser's Fetch
 * Metadata (also on a navigation without Origin: an iframe or a link), or a preflight announcing Authorization.
 */
export function noteBrowser(
  obs: Observations,
  ctx: RequestContext,
  at: number,
  tenant: string,
  token: AccessToken | undefined,
) {
  const h = ctx.req.headers;
  const credentials = h.authorization !== undefined || ctx.req.query.access_token !== undefined;
  const kind =
    h.origin !== undefined && credentials
      ? ('origin-with-credentials' as const)
      : browserFetchMetadata(h) && credentials
        ? ('fetch-metadata-with-credentials' as const)
        : ctx.req.method === 'OPTIONS' && /authorization/i.test(h['access-control-request-headers'] ?? '')
          ? ('preflight-for-credentials' as const)
          : undefined;
  if (kind)
    obs.browser.push({
      requestId: ctx.requestId,
      at,
      kind,
      origin:
        h.origin ??
        (kind === 'fetch-metadata-with-credentials'
          ? `Sec-Fetch-Site ${h['sec-fetch-site'] ?? '-'}, Sec-Fetch-Mode ${h['sec-fetch-mode'] ?? '-'}`
          : ''),
      tenant,
      client: token?.clientId ?? '(unknown)',
    });
}

export { browserFetchMetadata } from '../lib/browser-request.ts';
