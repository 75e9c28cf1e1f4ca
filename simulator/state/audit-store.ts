import type { AuditAppender, AuditRecord } from './audit-trail.ts';

/** Audit records per tenant, oldest first, capped per tenant. */
export interface AuditStore extends AuditAppender {
  list(tenant: string): AuditRecord[];
  clear(): void;
}

export function createAuditStore(maxPerTenant = 100_000): AuditStore {
  const byTenant = new Map<string, AuditRecord[]>();
  return {
    append(record) {
      const list = byTenant.get(record.tenant) ?? [];
      list.push(record);
      if (list.length > maxPerTenant) list.splice(0, list.length - maxPerTenant);
      byTenant.set(record.tenant, list);
    },
    list: (tenant) => [...(byTenant.get(tenant) ?? [])],
    clear: () => byTenant.clear(),
  };
}
