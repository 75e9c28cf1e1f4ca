import type { AuthorizationCode, AuthorizationCodeRepository } from '../state/ports/authorization-codes.ts';

export type { AuthorizationCode };

/**
 * The memory repository of authorization codes: records by hash in insertion order (the oldest go
 * first when the code service trims). No clock, no hashing, no limit: see services/code-service.ts.
 * @example const repository = createCodeStore(); repository.insert(hashToken(code), record);
 */
export function createCodeStore(): AuthorizationCodeRepository {
  const byHash = new Map<string, AuthorizationCode>();
  return {
    insert(hash, code) {
      if (byHash.has(hash)) return false;
      byHash.set(hash, code);
      return true;
    },
    find: (hash) => byHash.get(hash),
    markUsed(hash, grant) {
      const rec = byHash.get(hash);
      if (!rec) return;
      rec.used = true;
      if (grant !== undefined) rec.grant = grant;
    },
    size: () => byHash.size,
    removeExpiredBefore(horizon) {
      for (const [h, c] of byHash) if (c.expiresAt < horizon) byHash.delete(h);
    },
    trimTo(keep) {
      // Maps iterate in insertion order: the first keys are the oldest codes.
      for (const h of byHash.keys()) {
        if (byHash.size <= keep) break;
        byHash.delete(h);
      }
    },
    clear() {
      byHash.clear();
    },
  };
}
