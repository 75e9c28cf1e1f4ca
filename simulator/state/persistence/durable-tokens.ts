import { andThen } from '../ports/maybe-promise.ts';
import type { AccessToken, StoredToken, TokenRepository } from '../ports/tokens.ts';
import type { Persistence } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';

/** The namespace and record shape of tokens in the data dir since they were first written through. */
const NS = 'tokens';

const isRecord = (r: unknown): r is AccessToken => {
  const t = r as Partial<AccessToken> | undefined;
  return (
    typeof t?.clientId === 'string' &&
    Array.isArray(t.tenants) &&
    Array.isArray(t.scopes) &&
    Number.isFinite(t.issuedAt) &&
    Number.isFinite(t.expiresAt)
  );
};

/**
 * The token repository written through to the data dir (or a shared sandbox's snapshots): the stored
 * tokens are loaded at start, and every write goes to the repository and then to `persistence` in the
 * same synchronous step, so an acknowledged token is on disk. Memory only: the repository unchanged.
 * @example const repository = durableTokens(createTokenStore(), persistence);
 */
export function durableTokens(repository: TokenRepository, persistence: Persistence): TokenRepository {
  if (!persistence.durable) return repository;
  for (const [hash, record] of persistence.entries<unknown>(NS)) {
    if (!isRecord(record))
      throw new PersistenceError(
        `${persistence.lastRead?.() ?? 'the data dir'}: a stored access token is not a token record; the data dir is damaged.`,
      );
    repository.insert(hash, record);
  }
  const forget = (gone: StoredToken[]) => {
    for (const t of gone) persistence.delete(NS, t.hash);
    return gone;
  };
  return {
    ...repository,
    insert: (hash, record) =>
      andThen(repository.insert(hash, record), (inserted) => {
        if (inserted) persistence.put(NS, hash, record);
        return inserted;
      }),
    remove: (hash) =>
      andThen(repository.remove(hash), (gone) => {
        // Also when this process no longer had it in memory: a revocation is never undone by a restart.
        persistence.delete(NS, hash);
        return gone;
      }),
    removeClient: (clientId) => andThen(repository.removeClient(clientId), forget),
    removeFamily: (family) => andThen(repository.removeFamily(family), forget),
    trimClient: (clientId, keep) => andThen(repository.trimClient(clientId, keep), forget),
    removeExpiredBefore: (horizon) => andThen(repository.removeExpiredBefore(horizon), forget),
    clear: () =>
      andThen(repository.clear(), () => {
        persistence.deleteNamespace(NS);
      }),
  };
}
