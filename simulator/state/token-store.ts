import { hash } from 'node:crypto';
import type { Environment } from '../contract/environment.ts';
import type { Scope } from '../contract/scopes.ts';
import type { AccessToken } from '../core/context.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { memoryOnly, type Persistence } from './persistence/persistence.ts';

const NS = 'tokens';

export type { AccessToken };

export type TokenGrant = Omit<AccessToken, 'issuedAt' | 'expiresAt'> & { ttlSeconds?: number };

/**
 * Bearer tokens, kept by their SHA-256 so the raw token lives only with its holder. The OAuth
 * server and the start-up banner mint through `issue`; the auth middleware only calls `lookup`.
 * @example const { token } = store.issue({ clientId: 'c', tenants: ['t'], scopes: ['catalog:read'], environment: 'sandbox' });
 */
export interface TokenStore {
  issue(grant: TokenGrant): { token: string; record: AccessToken };
  /** The record, expired or not (auth decides), or undefined for an unknown token. */
  lookup(token: string): AccessToken | undefined;
  revoke(token: string): boolean;
  /** Drops every token of a client (used when a refresh family is revoked or state is reset). */
  revokeClient(clientId: string): void;
  /** Drops every token issued under one grant (refresh-token family); returns how many. */
  revokeFamily(family: string): number;
  clear(): void;
}

// One-shot hash: the same digest without a Hash object per authenticated request.
export const hashToken = (token: string) => hash('sha256', token, 'base64url');

export function createTokenStore(
  clock: Clock,
  defaultTtlSeconds = 900,
  persistence: Persistence = memoryOnly,
): TokenStore {
  const byHash = new Map<string, AccessToken>(persistence.entries<AccessToken>(NS));
  function sweep() {
    // Expired tokens stay answerable as "expired" for a while, then go, so memory stays bounded.
    const horizon = clock.now() - 24 * 3600_000;
    for (const [h, rec] of byHash) {
      if (rec.expiresAt < horizon) {
        byHash.delete(h);
        persistence.delete(NS, h);
      }
    }
  }
  return {
    issue(grant) {
      if (byHash.size > 50_000) sweep();
      const { ttlSeconds = defaultTtlSeconds, ...rest } = grant;
      const issuedAt = clock.now();
      const record: AccessToken = { ...rest, issuedAt, expiresAt: issuedAt + ttlSeconds * 1000 };
      const token = newId('ncs_at', 32);
      byHash.set(hashToken(token), record);
      persistence.put(NS, hashToken(token), record);
      return { token, record };
    },
    lookup: (token) => byHash.get(hashToken(token)),
    revoke(token) {
      persistence.delete(NS, hashToken(token));
      return byHash.delete(hashToken(token));
    },
    revokeClient(clientId) {
      for (const [h, rec] of byHash) {
        if (rec.clientId === clientId) {
          byHash.delete(h);
          persistence.delete(NS, h);
        }
      }
    },
    clear() {
      byHash.clear();
      persistence.deleteNamespace(NS);
    },
    revokeFamily(family) {
      let n = 0;
      for (const [h, rec] of byHash) {
        if (rec.family === family && byHash.delete(h)) {
          persistence.delete(NS, h);
          n++;
        }
      }
      return n;
    },
  };
}
