// The audit journal of ebony: per tenant, entries numbered from 1, each chained to the one before by
// hash = SHA-256 (hex) of the entry's RFC 8785 JSON without `hash`; the first links to 64 zeros.
import { createHash } from 'node:crypto';
import { ApiError, type Call, canonical, nowIso } from './http.ts';

export const GENESIS = '0'.repeat(64);

export interface AuditEntry {
  seq: number;
  at: string;
  tenant: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  requestId: string;
  prevHash: string;
  hash: string;
}

export function entryHash(e: Omit<AuditEntry, 'hash'> & { hash?: string }): string {
  const { hash: _, ...rest } = e;
  return createHash('sha256').update(canonical(rest)).digest('hex');
}

export class AuditJournal {
  private readonly byTenant = new Map<string, AuditEntry[]>();

  record(call: Call, action: string, resourceType: string, resourceId: string): void {
    const list = this.byTenant.get(call.tenant) ?? [];
    this.byTenant.set(call.tenant, list);
    const prev = list[list.length - 1];
    const base = {
      seq: list.length + 1,
      at: nowIso(),
      tenant: call.tenant,
      actor: call.clientId,
      action,
      resourceType,
      resourceId,
      requestId: call.requestId,
      prevHash: prev ? prev.hash : GENESIS,
    };
    list.push({ ...base, hash: entryHash(base) });
  }

  /** GET /audit-log?limit=N (default 50, at most 500 served): the latest N entries oldest first, with the proof. */
  read(call: Call) {
    const raw = call.url.searchParams.get('limit');
    let limit = 50;
    if (raw !== null) {
      if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
        throw new ApiError('invalid_request', 'Query parameter limit must be an integer of at least 1.', 'limit');
      }
      limit = Math.min(500, Number(raw));
    }
    const all = this.byTenant.get(call.tenant) ?? [];
    const entries = all.slice(Math.max(0, all.length - limit));
    const head = all[all.length - 1];
    const intact = all.every(
      (e, i) => e.hash === entryHash(e) && e.prevHash === (i === 0 ? GENESIS : all[i - 1]?.hash),
    );
    return {
      tenant: call.tenant,
      count: entries.length,
      total: all.length,
      entries,
      proof: {
        type: 'HASHCHAIN',
        algorithm: 'SHA-256',
        entryHash: 'sha256 hex of the RFC 8785 JSON of the entry without hash',
        genesis: GENESIS,
        headSeq: head?.seq ?? 0,
        headHash: head?.hash ?? GENESIS,
        firstPrevHash: entries[0]?.prevHash ?? GENESIS,
        verified: intact,
        verifiedAt: nowIso(),
      },
    };
  }
}
