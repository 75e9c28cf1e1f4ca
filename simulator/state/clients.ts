import type { ClientRecord, ClientRepository } from './ports/clients.ts';

export type { ClientRecord };

/**
 * The memory client repository: records by id, nothing else (secrets arrive hashed: client service).
 * @example const repository = createClientStore(); repository.insert({ ...client, secretHash });
 */
export function createClientStore(): ClientRepository {
  const byId = new Map<string, ClientRecord>();
  return {
    insert(record) {
      byId.set(record.id, record);
    },
    get: (id) => byId.get(id),
    all: () => [...byId.values()],
    clear() {
      byId.clear();
    },
  };
}
