import type { AccessToken, StoredToken, TokenRepository } from './ports/tokens.ts';

export type { AccessToken };

/**
 * The memory token repository: records by hash, and each client's hashes in issue order (so the
 * service's cap drops the oldest in O(1) per token). No clock, no limit, no hashing: see the token service.
 * @example const repository = createTokenStore(); repository.insert(hashToken(token), record);
 */
export function createTokenStore(): TokenRepository {
  const byHash = new Map<string, AccessToken>();
  const byClient = new Map<string, Set<string>>();
  const take = (hash: string): StoredToken | undefined => {
    const record = byHash.get(hash);
    if (!record) return undefined;
    byHash.delete(hash);
    const set = byClient.get(record.clientId);
    set?.delete(hash);
    if (set?.size === 0) byClient.delete(record.clientId);
    return { hash, record };
  };
  const takeAll = (hashes: Iterable<string>) => {
    const removed: StoredToken[] = [];
    for (const h of [...hashes]) {
      const t = take(h);
      if (t) removed.push(t);
    }
    return removed;
  };
  return {
    insert(hash, record) {
      if (byHash.has(hash)) return false;
      byHash.set(hash, record);
      const set = byClient.get(record.clientId);
      if (set) set.add(hash);
      else byClient.set(record.clientId, new Set([hash]));
      return true;
    },
    find: (hash) => byHash.get(hash),
    remove: take,
    removeClient: (clientId) => takeAll(byClient.get(clientId) ?? []),
    removeFamily(family) {
      const hashes: string[] = [];
      for (const [h, rec] of byHash) if (rec.family === family) hashes.push(h);
      return takeAll(hashes);
    },
    trimClient(clientId, keep) {
      const set = byClient.get(clientId);
      if (!set || set.size <= keep) return [];
      const oldest: string[] = [];
      for (const h of set) {
        if (set.size - oldest.length <= keep) break;
        oldest.push(h);
      }
      return takeAll(oldest);
    },
    removeExpiredBefore(horizon) {
      const hashes: string[] = [];
      for (const [h, rec] of byHash) if (rec.expiresAt < horizon) hashes.push(h);
      return takeAll(hashes);
    },
    size: () => byHash.size,
    clear() {
      byHash.clear();
      byClient.clear();
    },
  };
}
