import type {
  FamilyRecord,
  RefreshFamilyRepository,
  RefreshGrant,
  RefreshTokenRecord,
} from '../state/ports/refresh-families.ts';

export type { RefreshGrant };

/**
 * The memory repository of refresh tokens (by hash) and their families (by id, oldest first). No
 * clock, no hashing, no rotation rule: see services/refresh-family-service.ts.
 * @example const repository = createRefreshFamilyStore(); repository.insertFamily('grant_1', grant);
 */
export function createRefreshFamilyStore(): RefreshFamilyRepository {
  const tokens = new Map<string, RefreshTokenRecord>();
  const families = new Map<string, FamilyRecord>();
  const forget = (id: string) => {
    const fam = families.get(id);
    if (!fam) return;
    for (const h of fam.hashes) tokens.delete(h);
    families.delete(id);
  };
  return {
    insertFamily(id, grant) {
      if (families.has(id)) return false;
      families.set(id, { grant, revoked: false, expiresAt: 0, hashes: [] });
      return true;
    },
    getFamily: (id) => families.get(id),
    findToken: (hash) => tokens.get(hash),
    addToken(id, hash, expiresAt, keepLatest) {
      const fam = families.get(id);
      if (!fam) return;
      tokens.set(hash, { family: id, expiresAt, used: false });
      fam.hashes.push(hash);
      while (fam.hashes.length > keepLatest) {
        const oldest = fam.hashes.shift();
        if (oldest !== undefined) tokens.delete(oldest);
      }
      fam.expiresAt = expiresAt;
    },
    markUsed(hash) {
      const rec = tokens.get(hash);
      if (rec) rec.used = true;
    },
    revoke(id) {
      const fam = families.get(id);
      if (fam) fam.revoked = true;
      return fam !== undefined;
    },
    familyCount: () => families.size,
    forgetExpiredBefore(horizon) {
      for (const [id, fam] of families) if (fam.expiresAt < horizon) forget(id);
    },
    trimTo(keep) {
      for (const id of families.keys()) {
        if (families.size <= keep) break;
        forget(id);
      }
    },
    clear() {
      tokens.clear();
      families.clear();
    },
  };
}
