import type { FixtureSet } from '../contract/fixtures.ts';
import type { Clock } from '../lib/clock.ts';
import type { ClientService } from '../services/client-service.ts';
import type { CodeService } from '../services/code-service.ts';
import type { RefreshFamilyService } from '../services/refresh-family-service.ts';
import type { AccessToken, TokenService } from '../services/token-service.ts';

/** The services the authorization server reads and writes through. */
export interface AuthServerStores {
  clock: Clock;
  clients: ClientService;
  tokens: TokenService;
  fixtures: Pick<FixtureSet, 'persons'>;
}

/** What the endpoints of the authorization server share. */
export interface AuthServerDeps {
  state: AuthServerStores;
  codes: CodeService;
  families: RefreshFamilyService;
  /** Issuer when a request does not say which origin it addressed (direct core calls). */
  fallbackIssuer: string;
}

/**
 * The successful token answer (RFC 6749 5.1). `tenants` and `environment` are additions: they tell
 * the client which x-service-tenant values the token is released for.
 * @example tokenBody(state.tokens.issue(grant));
 */
export function tokenBody(issued: { token: string; record: AccessToken }, refreshToken?: string) {
  const { record } = issued;
  return {
    access_token: issued.token,
    token_type: 'Bearer',
    expires_in: Math.round((record.expiresAt - record.issuedAt) / 1000),
    scope: record.scopes.join(' '),
    ...(refreshToken ? { refresh_token: refreshToken } : {}),
    tenants: record.tenants,
    environment: record.environment,
  };
}
