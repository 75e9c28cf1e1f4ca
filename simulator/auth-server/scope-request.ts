import type { Scope } from '../contract/scopes.ts';
import { OAuthError } from './oauth-error.ts';

/**
 * The scopes a token request asks for: a space-delimited subset of what the client (or the grant
 * being refreshed) holds; none requested means all of them. Anything else is invalid_scope.
 * @example resolveScopes('catalog:read', client.scopes) // ['catalog:read']
 */
export function resolveScopes(requested: string | undefined, allowed: readonly Scope[]): Scope[] {
  if (requested === undefined) return [...allowed];
  const names = requested.split(' ').filter(Boolean);
  if (!names.length) return [...allowed];
  const refused = names.filter((n) => !allowed.includes(n as Scope));
  if (refused.length) {
    // Only name-like values are repeated back; anything else may be a mistake that should not be echoed.
    const shown = refused.map((n) => (/^[A-Za-z0-9:._-]{1,64}$/.test(n) ? n : '(unreadable)'));
    throw new OAuthError(
      'invalid_scope',
      `Not granted to this client: ${[...new Set(shown)].join(' ')}. It may ask for: ${allowed.join(' ')}.`,
    );
  }
  return allowed.filter((s) => names.includes(s));
}
