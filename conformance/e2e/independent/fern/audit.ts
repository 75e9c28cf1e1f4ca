// Audit log per tenant, oldest first, with a hash chain of fern's own: each entry's hash is
// sha256 over "<prevHash>|<seq>|<at>|<action>|<targetId>|<actor>" (pipe-joined text, not JSON), the
// first entry chained to 64 zeros. The answer carries the head and how to recompute it.
import { createHash, randomUUID } from 'node:crypto';
import { isoNow } from './http-util.ts';

export interface AuditEntry {
  seq: number;
  id: string;
  at: string;
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
  requestId: string;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

export const GENESIS = '0'.repeat(64);

export function chainHash(prev: string, e: Pick<AuditEntry, 'seq' | 'at' | 'action' | 'targetId' | 'actor'>) {
  return createHash('sha256').update(`${prev}|${e.seq}|${e.at}|${e.action}|${e.targetId}|${e.actor}`).digest('hex');
}

export class AuditLog {
  byTenant = new Map<string, AuditEntry[]>();

  append(
    tenant: string,
    actor: string,
    action: string,
    targetType: string,
    targetId: string,
    requestId: string,
    details: Record<string, unknown>,
  ) {
    const list = this.byTenant.get(tenant) ?? [];
    this.byTenant.set(tenant, list);
    const prevHash = list.at(-1)?.hash ?? GENESIS;
    const base = {
      seq: list.length + 1,
      id: randomUUID(),
      at: isoNow(),
      actor,
      action,
      targetType,
      targetId,
      requestId,
      details,
    };
    list.push({ ...base, prevHash, hash: chainHash(prevHash, base) });
  }

  /**
   * A page, oldest first after `cursor` (a seq), or newest first before it when `newestFirst` (the
   * FERN_AUDIT_NEWEST_FIRST choice); `next` is the path of the following page (also sent as a Link header).
   */
  page(tenant: string, limit: number, cursor: number, newestFirst = false) {
    const list = this.byTenant.get(tenant) ?? [];
    const entries = newestFirst
      ? [...list]
          .reverse()
          .filter((e) => cursor === 0 || e.seq < cursor)
          .slice(0, limit)
      : list.filter((e) => e.seq > cursor).slice(0, limit);
    const last = entries.at(-1);
    const more = last !== undefined && (newestFirst ? last.seq > 1 : last.seq < list.length);
    const param = newestFirst ? 'before' : 'after';
    return {
      tenant,
      count: entries.length,
      order: newestFirst ? 'newest_first' : 'oldest_first',
      entries,
      next: more && last ? `/api/public/v1/audit-log?limit=${limit}&${param}=${last.seq}` : null,
      integrity: {
        scheme: 'fern-pipe-chain-v1',
        hashAlgorithm: 'sha256',
        input: '<prevHash>|<seq>|<at>|<action>|<targetId>|<actor>',
        genesis: GENESIS,
        headSeq: list.length,
        headHash: list.at(-1)?.hash ?? GENESIS,
      },
    };
  }
}
