// Refresh-token families written through to the data dir, so a restart keeps every grant: a refresh token
// issued before it still rotates after it, and a spent one presented after it still revokes its family.
import { all, andThen, type MaybePromise } from '../ports/maybe-promise.ts';
import type {
  FamilyRecord,
  RefreshFamilyRepository,
  RefreshGrant,
  RefreshTokenRecord,
} from '../ports/refresh-families.ts';
import type { Persistence } from './persistence.ts';
import { afterLoad, expectRecord, loadEach } from './write-through.ts';

/** One record per family: its grant, state and remembered tokens (hash, expiry, spent), oldest first. */
const NS = 'refresh-families';

interface StoredFamily {
  grant: RefreshGrant;
  revoked: boolean;
  tokens: [hash: string, expiresAt: number, used: boolean][];
}

const isStored = (r: unknown): r is StoredFamily => {
  const f = r as Partial<StoredFamily> | undefined;
  return (
    typeof f?.grant?.clientId === 'string' &&
    typeof f.grant.personId === 'string' &&
    typeof f.grant.environment === 'string' &&
    Array.isArray(f.grant.tenants) &&
    Array.isArray(f.grant.scopes) &&
    typeof f.revoked === 'boolean' &&
    Array.isArray(f.tokens) &&
    f.tokens.every((t) => Array.isArray(t) && typeof t[0] === 'string' && Number.isFinite(t[1]))
  );
};

/**
 * The refresh-family repository written through to the data dir: the families are loaded at start, and
 * each change rewrites its family's record in the same synchronous step (a grant holds at most its 64
 * latest tokens, so a record stays small). Memory only: the repository unchanged.
 * @example const families = durableRefreshFamilies(createRefreshFamilyStore(), persistence);
 */
export function durableRefreshFamilies(
  repository: RefreshFamilyRepository,
  persistence: Persistence,
): RefreshFamilyRepository {
  if (!persistence.durable) return repository;
  /** The families on disk: what a sweep or trim may have forgotten is looked for here. */
  const stored = new Set<string>();
  const load = ([id, record]: [string, unknown]): MaybePromise<unknown> => {
    expectRecord(persistence, isStored(record), 'a refresh-token family');
    const f = record as StoredFamily;
    stored.add(id);
    return andThen(repository.insertFamily(id, f.grant), () =>
      andThen(
        loadEach(f.tokens, ([hash, expiresAt, used]) =>
          andThen(repository.addToken(id, hash, expiresAt, f.tokens.length), () =>
            used ? repository.markUsed(hash) : undefined,
          ),
        ),
        () => (f.revoked ? repository.revoke(id) : undefined),
      ),
    );
  };
  const ready = afterLoad(loadEach(persistence.entries<unknown>(NS), load));
  /** Rewrites a family's record from the repository (or deletes it when the repository forgot it). */
  const save = (id: string): MaybePromise<void> =>
    andThen(repository.getFamily(id), (family: FamilyRecord | undefined) => {
      if (!family) return forget(id);
      return andThen(
        all<(RefreshTokenRecord | undefined)[]>(family.hashes.map((h) => repository.findToken(h))),
        (tokens: (RefreshTokenRecord | undefined)[]) => {
          const record: StoredFamily = { grant: family.grant, revoked: family.revoked, tokens: [] };
          family.hashes.forEach((h, i) => {
            const t = tokens[i];
            if (t) record.tokens.push([h, t.expiresAt, t.used]);
          });
          persistence.put(NS, id, record);
          stored.add(id);
        },
      );
    });
  const forget = (id: string) => {
    if (stored.delete(id)) persistence.delete(NS, id);
  };
  /** After a sweep: every stored family the repository no longer holds is deleted from disk. */
  const prune = (): MaybePromise<void> =>
    andThen(
      all<(string | undefined)[]>(
        [...stored].map((id) => andThen(repository.getFamily(id), (f) => (f ? undefined : id))),
      ),
      (gone) => {
        for (const id of gone) if (id !== undefined) forget(id);
      },
    );
  return {
    // Reads wait for the load too (at once when the repository answered every insert at once).
    getFamily: (id) => ready(() => repository.getFamily(id)),
    findToken: (hash) => ready(() => repository.findToken(hash)),
    familyCount: () => ready(() => repository.familyCount()),
    insertFamily: (id, grant) =>
      ready(() =>
        andThen(repository.insertFamily(id, grant), (added) => andThen(added ? save(id) : undefined, () => added)),
      ),
    addToken: (family, hash, expiresAt, keepLatest) =>
      ready(() => andThen(repository.addToken(family, hash, expiresAt, keepLatest), () => save(family))),
    markUsed: (hash) =>
      ready(() =>
        andThen(repository.findToken(hash), (token) =>
          andThen(repository.markUsed(hash), () => (token ? save(token.family) : undefined)),
        ),
      ),
    revoke: (family) =>
      ready(() =>
        andThen(repository.revoke(family), (known) => andThen(known ? save(family) : undefined, () => known)),
      ),
    forgetExpiredBefore: (horizon) => ready(() => andThen(repository.forgetExpiredBefore(horizon), prune)),
    trimTo: (keep) => ready(() => andThen(repository.trimTo(keep), prune)),
    clear: () =>
      ready(() =>
        andThen(repository.clear(), () => {
          stored.clear();
          persistence.deleteNamespace(NS);
        }),
      ),
  };
}
