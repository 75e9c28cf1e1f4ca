import { buildRoutingDocument, type OpenApiDocument } from '../contract/openapi.ts';
import { controlOnError } from '../control/mount.ts';
import { ApiError } from '../core/api-error.ts';
import type { Mount } from '../core/mount.ts';
import { defineStep, pipeline } from '../core/step.ts';
import { raw } from '../core/reply.ts';
import { createRouter } from '../core/router.ts';
import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { routeMatchStep } from '../middleware/route-match.ts';
import { validateStep } from '../middleware/validate.ts';
import { type ApiDeps, INSPECTOR_ROUTES, inspectorHandlers } from './api-routes.ts';
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

export interface InspectorMountOptions extends ApiDeps {
  sessions: Sessions;
  /** Answer only requests addressed to a loopback host name (default true; false when serving on another interface). */
  loopbackOnly?: boolean;
}

const plain = (status: number, text: string, extra: Record<string, string> = {}): PlainResponse => ({
  status,
  headers: { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...extra },
  body: text,
});
const subPath = (req: PlainRequest) => req.path.slice(INSPECTOR_PREFIX.length);
const isIndex = (sub: string) => sub === '' || sub === '/';

/**
 * The inspector mounted at /_sandbox/inspector: the login exchange, the page's static files, its JSON API
 * (a route table with typed handlers, routed and validated like the control plane) and its live stream.
 * Everything but the login answers 401 without the session cookie.
 * @example createCore({ state, mounts: [createInspectorMount({ state, control, journal, sessions, signatureHeader })] })
 */
export function createInspectorMount(opts: InspectorMountOptions): Mount {
  let assets: ReturnType<typeof loadAssets> | undefined;
  let document: OpenApiDocument | undefined;
  const router = createRouter(
    () => {
      document ??= buildRoutingDocument(INSPECTOR_ROUTES, 'ncs-sandbox inspector') as OpenApiDocument;
      return document;
    },
    {
      routes: INSPECTOR_ROUTES,
      unknownPath: () => ({ detail: 'No such inspector route.' }),
      wrongMethod: (_method, _path, allow) => ({ detail: `This inspector path answers ${allow}.` }),
    },
  );

  /** Every answer, enveloped or not, carries the security headers. */
  const securityHeaders = defineStep({
    name: 'security-headers',
    async run(ctx, next) {
      Object.assign(ctx.responseHeaders, SECURITY_HEADERS);
      return next();
    },
  });
  /** DNS rebinding: a page on another name that resolves to 127.0.0.1 must not reach the inspector. */
  const loopbackGuard = defineStep({
    name: 'loopback-guard',
    async run(ctx, next) {
      if (opts.loopbackOnly !== false && !LOOPBACK.test(ctx.req.headers.host ?? ''))
        return raw(plain(403, 'The inspector answers only on a loopback address (127.0.0.1, localhost, [::1]).'));
      return next();
    },
  });
  /** The one-time login token in the URL, exchanged once for the session cookie. */
  const login = defineStep({
    name: 'login',
    async run(ctx, next) {
      const { req } = ctx;
      if (req.method !== 'GET' || !isIndex(subPath(req)) || typeof req.query.token !== 'string') return next();
      const session = opts.sessions.login(req.query.token);
      if (!session)
        return raw(
          plain(
            401,
            'This login link is spent or wrong. Get a fresh one with `ncs inspector` (admin token) or inspector.newLoginUrl().',
          ),
        );
      return raw({
        status: 303,
        headers: { ...SECURITY_HEADERS, location: session.location, 'set-cookie': session.setCookie },
      });
    },
  });
  const session = defineStep({
    name: 'session',
    async run(ctx, next) {
      const sub = subPath(ctx.req);
      const missing = opts.sessions.check(ctx.req, sub);
      if (!missing) return next();
      const err = new ApiError('unauthorized', {
        detail:
          missing === 'cookie'
            ? 'The inspector needs its session cookie.'
            : 'The inspector API needs the session secret its page holds (the cookie alone is not enough).',
        hint: 'Open the inspector URL printed by ncs serve (it logs you in once); `ncs inspector` prints a fresh one.',
      });
      if (sub.startsWith('/api/')) throw err;
      return raw(plain(401, `${err.detail} ${err.hint}`));
    },
  });
  /** The page and its modules: every path outside /api/. */
  const page = defineStep({
    name: 'page',
    async run(ctx, next) {
      const sub = subPath(ctx.req);
      if (sub.startsWith('/api/')) return next();
      assets ??= loadAssets();
      const name = isIndex(sub) ? 'index.html' : sub.slice(1);
      const asset = assets.get(name);
      if (!asset) return raw(plain(404, `No inspector file ${name.slice(0, 80)}.`));
      return raw({ status: 200, headers: { ...SECURITY_HEADERS, 'content-type': asset.type }, body: asset.body });
    },
  });
  // SameSite=Strict already keeps other sites' requests cookie-less; the custom header makes a forged
  // form post impossible even from a sibling origin on the same host.
  const sameOrigin = defineStep({
    name: 'same-origin',
    requires: ['route'],
    async run(ctx, next) {
      const { req } = ctx;
      const origin = req.headers.origin;
      if (
        req.method !== 'GET' &&
        (req.headers['x-ncs-inspector'] !== '1' || (origin && req.origin && origin !== req.origin))
      )
        throw new ApiError('forbidden', {
          detail: 'Inspector actions come only from the inspector page.',
          hint: 'Send x-ncs-inspector: 1 from the same origin.',
        });
      return next();
    },
  });

  return {
    name: 'inspector',
    prefixes: [INSPECTOR_PREFIX],
    routes: INSPECTOR_ROUTES,
    // Not versioned: every request is served as the current interface version.
    pipeline: pipeline(
      [securityHeaders, loopbackGuard, login, session, page, routeMatchStep(router), sameOrigin, validateStep(router)],
      ['version'],
    ),
    handlers: inspectorHandlers(opts),
    ready: () => router.ready,
    // ApiError and the control operations' ControlError, by type.
    onError: controlOnError,
  };
}
