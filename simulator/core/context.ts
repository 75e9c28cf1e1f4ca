import type { RouteDef } from '../contract/route-def.ts';
import { CURRENT_VERSION, type ApiVersion } from '../contract/versions.ts';
import type { z } from 'zod';
import type { Environment } from '../contract/environment.ts';
import type { Scope } from '../contract/scopes.ts';
import type { RouteMatch } from './router.ts';
import type { PlainRequest } from './types.ts';

/** What a bearer token stands for. */
export interface AccessToken {
  clientId: string;
  tenants: string[];
  scopes: Scope[];
  environment: Environment;
  issuedAt: number;
  expiresAt: number;
  /** The person the token acts for (authorization code flow). */
  personId?: string;
  /** The grant (refresh-token family) the token was issued under; revoking the grant revokes it. */
  family?: string;
}

/** Who calls: the token and the tenant it was accepted for. */
export interface Access {
  token: AccessToken;
  tenant: string;
}

/** What the pipeline learns about one call while it passes through the middleware. */
export interface RequestContext {
  req: PlainRequest;
  requestId: string;
  /** Clock time at arrival (ms since epoch, simulator clock). */
  at: number;
  version: ApiVersion;
  route?: RouteDef;
  match?: RouteMatch;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  /** Set by auth for authenticated routes (and for optional-auth routes when a token is sent). */
  access?: Access;
  idempotencyKey?: string;
  replayed?: boolean;
  /**
   * Set by an observer that notes what a call asked for (the client rules): given the JSON body as
   * parsed, before validation may coerce it, so a body is parsed once, not again by the observer.
   */
  noteBody?: (parsed: unknown) => number;
  /** What noteBody answered (undefined: not called, or it threw). */
  bodyNote?: number;
  /** Extra response headers collected along the way (rate limit, Allow, ...). */
  responseHeaders: Record<string, string>;
}

/**
 * The route matched for this call: every step after route matching may rely on it.
 * @example const { id, method } = matchedRoute(ctx);
 */
export function matchedRoute(ctx: RequestContext): RouteDef {
  if (!ctx.route) throw new Error('no route matched before this step');
  return ctx.route;
}

/**
 * The request context as the handler of route R sees it: body and path parameters typed from the
 * route's zod schemas (validation ran before), the caller always known on authenticated routes.
 */
export type RouteContextOf<R> = Omit<RequestContext, 'body' | 'params' | 'access'> & {
  body: R extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
  params: R extends { params: infer P extends z.ZodType } ? z.output<P> : Record<string, never>;
  access: R extends { auth: true } ? Access : Access | undefined;
};

/**
 * A fresh context for one request, before any middleware ran (current interface version, nothing parsed).
 * @example const ctx = newContext(req, 'req_1', clock.now());
 */
export function newContext(req: PlainRequest, requestId: string, at: number): RequestContext {
  return { req, requestId, at, version: CURRENT_VERSION, params: {}, query: {}, body: undefined, responseHeaders: {} };
}
