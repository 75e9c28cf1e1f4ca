import type { ZodType } from 'zod';
import { CURRENT_VERSION } from '../contract/versions.ts';
import { ApiError } from '../core/api-error.ts';
import type { RequestContext } from '../core/context.ts';
import { failure, success } from '../core/envelope.ts';
import type { Surface } from '../core/surface.ts';
import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { ControlError } from '../control/operations.ts';
import { SSE_HEADERS } from '../events/sse.ts';
import { API_ROUTES, type ApiDeps } from './api-routes.ts';
import { createLiveSource } from './live.ts';
import { INSPECTOR_PREFIX } from './paths.ts';
import type { Sessions } from './session.ts';
import { loadAssets } from './static-assets.ts';

/** Same origin only, no inline script or style, no frames: the page runs nothing it did not serve itself. */
export const INSPECTOR_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const SECURITY_HEADERS = {
  'content-security-policy': INSPECTOR_CSP,
  'x-content-type-options': 'nosniff',
  // The login URL carries the one-time token: never hand it on as a Referer.
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
};
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/i;

export interface InspectorSurfaceOptions extends ApiDeps {
  sessions: Sessions;
  /** Answer only requests addressed to a loopback host name (default true; false when serving on another interface). */
  loopbackOnly?: boolean;
}

const plain = (status: number, text: string, extra: Record<string, string> = {}): PlainResponse => ({
  status,
  headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...extra },
  body: text,
});

/**
 * The inspector under /_sandbox/inspector: the login exchange, the page's static files, its JSON API and its
 * live stream. Everything but the login answers 401 without the session cookie.
 * @example surfaces.unshift(createInspectorSurface({ state, control, journal, sessions, signatureHeader }))
 */
export function createInspectorSurface(opts: InspectorSurfaceOptions): Surface {
  let assets: ReturnType<typeof loadAssets> | undefined;
  return {
    name: 'inspector',
    owns: (path) => path === INSPECTOR_PREFIX || path.startsWith(`${INSPECTOR_PREFIX}/`),
    async handle(req, sctx) {
      const ctx: RequestContext = {
        req,
        requestId: sctx.requestId,
        at: sctx.at,
        version: CURRENT_VERSION,
        params: {},
        query: req.query,
        body: undefined,
        responseHeaders: { ...SECURITY_HEADERS },
      };
      const sub = req.path.slice(INSPECTOR_PREFIX.length);
      // DNS rebinding: a page on another name that resolves to 127.0.0.1 must not reach the inspector.
      if (opts.loopbackOnly !== false && !LOOPBACK.test(req.headers.host ?? ''))
        return plain(403, 'The inspector answers only on a loopback address (127.0.0.1, localhost, [::1]).');
      if (req.method === 'GET' && (sub === '' || sub === '/') && typeof req.query.token === 'string') {
        const session = opts.sessions.login(req.query.token);
        if (!session)
          return plain(
            401,
            'This login link is spent or wrong. Get a fresh one with `ncs inspector` (admin token) or inspector.newLoginUrl().',
          );
        return {
          status: 303,
          headers: { ...SECURITY_HEADERS, location: session.location, 'set-cookie': session.setCookie },
        };
      }
      const api = sub.startsWith('/api/');
      const missing = opts.sessions.check(req, sub);
      if (missing) {
        const err = new ApiError('unauthorized', {
          detail:
            missing === 'cookie'
              ? 'The inspector needs its session cookie.'
              : 'The inspector API needs the session secret its page holds (the cookie alone is not enough).',
          hint: 'Open the inspector URL printed by ncs serve (it logs you in once); `ncs inspector` prints a fresh one.',
        });
        return api ? failure(ctx, err) : plain(401, `${err.detail} ${err.hint}`);
      }
      if (!api) return page(sub);
      try {
        return await callApi(sub.slice(4), req, ctx);
      } catch (err) {
        if (err instanceof ApiError) return failure(ctx, err);
        if (err instanceof ControlError) return failure(ctx, new ApiError(err.code, { detail: err.message }));
        if (err instanceof RangeError || (err instanceof Error && /must be/.test(err.message)))
          return failure(ctx, new ApiError('invalid_request', { detail: err.message }));
        throw err;
      }
    },
  };

  function page(sub: string): PlainResponse {
    assets ??= loadAssets();
    const name = sub === '' || sub === '/' ? 'index.html' : sub.slice(1);
    const asset = assets.get(name);
    if (!asset) return plain(404, `No inspector file ${name.slice(0, 80)}.`);
    return { status: 200, headers: { ...SECURITY_HEADERS, 'content-type': asset.type }, body: asset.body };
  }

  async function callApi(path: string, req: PlainRequest, ctx: RequestContext): Promise<PlainResponse> {
    if (req.method === 'GET' && path === '/live')
      return {
        status: 200,
        headers: { ...SECURITY_HEADERS, ...SSE_HEADERS },
        stream: createLiveSource(opts.state, opts.journal),
      };
    const candidates = API_ROUTES.filter((r) => r.path.test(path));
    const hit = candidates.find((r) => r.method === req.method);
    if (!hit) {
      const allow = candidates.map((r) => r.method).join(', ');
      throw new ApiError('not_found', {
        detail: allow ? `This inspector path answers ${allow}.` : 'No such inspector route.',
        ...(allow ? { headers: { allow } } : {}),
      });
    }
    if (req.method !== 'GET') checkSameOrigin(req);
    const params = (hit.path.exec(path)?.groups ?? {}) as Record<string, string>;
    const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, Array.isArray(v) ? v[0]! : v]));
    return success(ctx, await hit.run(params, query, parseBody(hit.body, req), req, opts));
  }
}

// SameSite=Strict already keeps other sites' requests cookie-less; the custom header makes a forged
// form post impossible even from a sibling origin on the same host.
function checkSameOrigin(req: PlainRequest) {
  const origin = req.headers.origin;
  if (req.headers['x-ncs-inspector'] !== '1' || (origin && req.origin && origin !== req.origin))
    throw new ApiError('forbidden', {
      detail: 'Inspector actions come only from the inspector page.',
      hint: 'Send x-ncs-inspector: 1 from the same origin.',
    });
}

function parseBody(schema: ZodType | undefined, req: PlainRequest) {
  if (!schema) return undefined;
  let json: unknown = {};
  try {
    if (req.body?.length) json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(req.body));
  } catch {
    throw new ApiError('invalid_request', { detail: 'The body is not valid JSON.' });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new ApiError('invalid_request', {
      detail: `${parsed.error.issues.map((i) => `body field ${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}.`,
    });
  return parsed.data;
}
