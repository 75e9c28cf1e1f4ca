import type { RouteDef } from '../contract/route-def.ts';
import type { ApiVersion } from '../contract/versions.ts';
import type { Environment } from '../contract/environment.ts';
import type { Scope } from '../contract/scopes.ts';
import type { RouteMatch } from './router.ts';
import type { PlainRequest, PlainResponse } from './types.ts';

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
  access?: { token: AccessToken; tenant: string };
  idempotencyKey?: string;
  replayed?: boolean;
  /** Extra response headers collected along the way (rate limit, Allow, ...). */
  responseHeaders: Record<string, string>;
  /** The success response built for this call and its `data` JSON (kept for the idempotency record). */
  success?: { res: PlainResponse; dataJson: string };
}
