// The audit log (an `audit_logs` table): one hash chain per tenant. Each entry's `hash` is
// sha256 hex of `prevHash|seq|action|resourceId|createdAt`, the first entry's prevHash 64 zeros; the answer's
// `proof` names the formula and the chain head. Paging by `cursor` (the last seq read), `nextCursor` in data.
import { createHash } from 'node:crypto';
import { HttpError } from './http.ts';
import type { Ctx } from './types.ts';
import { check, intString } from './validate.ts';

export interface AuditEntry {
  id: string;
  seq: number;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  requestId: string;
  createdAt: string;
  prevHash: string;
  hash: string;
}

const GENESIS = '0'.repeat(64);
export const AUDIT_FORMULA = 'sha256(prevHash|seq|action|resourceId|createdAt), hex';

export class AuditLog {
  private readonly rows = new Map<string, AuditEntry[]>();
  private nextId = 1;

  record(tenant: string, action: string, resourceType: string, resourceId: string, actor: string, requestId: string) {
    const list = this.rows.get(tenant) ?? [];
    this.rows.set(tenant, list);
    const prevHash = list.at(-1)?.hash ?? GENESIS;
    const seq = list.length + 1;
    const createdAt = new Date().toISOString();
    const hash = createHash('sha256').update(`${prevHash}|${seq}|${action}|${resourceId}|${createdAt}`).digest('hex');
    list.push({
      id: String(this.nextId++),
      seq,
      action,
      resourceType,
      resourceId,
      actor,
      requestId,
      createdAt,
      prevHash,
      hash,
    });
  }

  /** GET /audit-log?limit=1..200&cursor=<seq>. */
  page(ctx: Ctx, order: 'asc' | 'desc') {
    const q = check(ctx.query, 'query', [intString('limit', 1, 200), intString('cursor', 0, Number.MAX_SAFE_INTEGER)]);
    const limit = q.limit === undefined ? 50 : Number(q.limit);
    const cursor = q.cursor === undefined ? undefined : Number(q.cursor);
    const all = this.rows.get(ctx.tenant) ?? [];
    let list = order === 'desc' ? [...all].reverse() : all;
    if (cursor !== undefined) list = list.filter((e) => (order === 'desc' ? e.seq < cursor : e.seq > cursor));
    const entries = list.slice(0, limit);
    const more = list.length > limit;
    const head = all.at(-1);
    if (limit < 1) throw new HttpError(400, 'invalid_request', 'limit must be at least 1.');
    return {
      tenant: ctx.tenant,
      order: order === 'desc' ? 'newest_first' : 'oldest_first',
      count: entries.length,
      entries,
      nextCursor: more ? String(entries.at(-1)?.seq) : null,
      proof: {
        type: 'hash_chain',
        algorithm: 'sha256',
        encoding: 'hex',
        formula: AUDIT_FORMULA,
        genesis: GENESIS,
        headSeq: head?.seq ?? 0,
        headHash: head?.hash ?? GENESIS,
      },
    };
  }
}
