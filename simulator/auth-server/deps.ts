import type { FixtureSet } from '../contract/fixtures.ts';
import type { Clock } from '../lib/clock.ts';
import type { ClientRegistry } from '../state/clients.ts';
import type { AccessToken, TokenStore } from '../state/token-store.ts';
import type { CodeStore } from './code-store.ts';
import type { RefreshFamilies } from './refresh-families.ts';

/** The stores the authorization server reads and writes. */
export interface AuthServerStores {
  clock: Clock;
  clients: ClientRegistry;
  tokens: TokenStore;
  fixtures: Pick<FixtureSet, 'persons'>;
}

/** What the endpoints of the authorization server share. */
export interface AuthServerDeps {
  state: AuthServerStores;
  codes: CodeStore;
  families: RefreshFamilies;
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
