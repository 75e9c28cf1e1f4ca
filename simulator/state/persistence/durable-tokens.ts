import { andThen } from '../ports/maybe-promise.ts';
import type { AccessToken, StoredToken, TokenRepository } from '../ports/tokens.ts';
import type { Persistence } from './persistence.ts';
import { PersistenceError } from './persistence-error.ts';
import { after, afterLoad, kept, loadEach } from './write-through.ts';

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
  const ready = afterLoad(
    loadEach(persistence.entries<unknown>(NS), ([hash, record]) => {
      if (!isRecord(record))
        throw new PersistenceError(
          `${persistence.lastRead?.() ?? 'the data dir'}: a stored access token is not a token record; the data dir is damaged.`,
        );
      return repository.insert(hash, record);
    }),
  );
  const forget = (gone: StoredToken[]) => {
    for (const t of gone) persistence.delete(NS, t.hash);
    return gone;
  };
  return {
    ...repository,
    insert: (hash, record) =>
      ready(() =>
        kept(repository.insert(hash, record), () => {
          persistence.put(NS, hash, record);
        }),
      ),
    remove: (hash) =>
      ready(() =>
        andThen(repository.remove(hash), (gone) => {
          // Also when this process no longer had it in memory: a revocation is never undone by a restart.
          persistence.delete(NS, hash);
          return gone;
        }),
      ),
    removeClient: (clientId) => ready(() => andThen(repository.removeClient(clientId), forget)),
    removeFamily: (family) => ready(() => andThen(repository.removeFamily(family), forget)),
    trimClient: (clientId, keep) => ready(() => andThen(repository.trimClient(clientId, keep), forget)),
    removeExpiredBefore: (horizon) => ready(() => andThen(repository.removeExpiredBefore(horizon), forget)),
    clear: () => ready(() => after(repository.clear(), () => persistence.deleteNamespace(NS))),
  };
}
