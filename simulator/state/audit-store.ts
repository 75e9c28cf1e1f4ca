import type { AuditAppender, AuditRecord } from './audit-trail.ts';

/** Audit records per tenant, oldest first, capped per tenant. */
export interface AuditStore extends AuditAppender {
  list(tenant: string): AuditRecord[];
  clear(): void;
}

export function createAuditStore(maxPerTenant = 100_000): AuditStore {
  // Records before `start` are dropped; they are cut off in one splice once they fill a whole cap,
  // so a full log costs O(1) per append instead of shifting every record each time.
  const byTenant = new Map<string, { records: (AuditRecord | undefined)[]; start: number }>();
  return {
    append(record) {
      let log = byTenant.get(record.tenant);
      if (!log) byTenant.set(record.tenant, (log = { records: [], start: 0 }));
      log.records.push(record);
      if (log.records.length - log.start > maxPerTenant) {
        // Free the dropped record now; only its empty slot waits for the splice.
        log.records[log.start] = undefined;
        log.start += 1;
      }
      if (log.start >= maxPerTenant) {
        log.records.splice(0, log.start);
        log.start = 0;
      }
    },
    list(tenant) {
      const log = byTenant.get(tenant);
      return log ? (log.records.slice(log.start) as AuditRecord[]) : [];
    },
    clear: () => byTenant.clear(),
  };
}
