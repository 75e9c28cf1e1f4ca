// The audit log as an Oracle blockchain table would keep it: one chain per tenant, each row's hash (SHA2-512,
// hex) computed over the row's canonical JSON (RFC 8785: keys sorted, the row without its own hash), which holds
// the previous row's hash. JSON-B drops nulls, so the first row of a chain has no previous hash at all
// (or, configured, 128 zero digits). Pages are ORDS-style limit/offset with a Link rel="next".
import { createHash } from 'node:crypto';
import { bad, type Ctx, jsonb, offsetDateTime, type Rec } from './http.ts';
import type { Store } from './state.ts';

export class AuditLog {
  private readonly chains = new Map<string, Rec[]>();

  private readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  record(ctx: Ctx, action: string, resourceType: string, resourceId: string | number): void {
    const tenant = ctx.tenant ?? '';
    const chain = this.chains.get(tenant) ?? [];
    this.chains.set(tenant, chain);
    const prev = chain.at(-1)?.rowHash ?? (this.store.options.auditGenesis === 'zeros' ? '0'.repeat(128) : null);
    const row = jsonb({
      sequenceNumber: chain.length + 1,
      action,
      resourceType,
      resourceId: String(resourceId),
      actor: ctx.clientId,
      requestId: ctx.requestId,
      occurredAt: offsetDateTime(),
      prevRowHash: prev,
    }) as Rec;
    row.rowHash = rowHash(row);
    chain.push(row);
  }

  /** GET /audit-log?limit=&offset= for the caller's tenant. */
  page(ctx: Ctx): { data: Rec; link?: string } {
    const q = ctx.url.searchParams;
    const limit = q.get('limit') === null ? 25 : Number(q.get('limit'));
    const offset = q.get('offset') === null ? 0 : Number(q.get('offset'));
    if (!Number.isInteger(limit) || limit < 1) throw bad('limit: must be a positive integer');
    if (!Number.isInteger(offset) || offset < 0) throw bad('offset: must be an integer of at least 0');
    const size = Math.min(limit, this.store.options.maxPageSize);
    const chain = this.chains.get(ctx.tenant ?? '') ?? [];
    const ordered = this.store.options.auditOldestFirst ? chain : [...chain].reverse();
    const items = ordered.slice(offset, offset + size);
    const hasMore = offset + size < ordered.length;
    const head = chain.at(-1);
    const data = {
      items,
      count: items.length,
      limit: size,
      offset,
      hasMore,
      integrity: {
        method: 'BLOCKCHAIN_TABLE_ROW_HASH',
        hashAlgorithm: 'SHA2_512',
        rowHashInput: 'RFC 8785 JSON of the row without rowHash (it includes prevRowHash)',
        order: this.store.options.auditOldestFirst ? 'sequenceNumber ASC' : 'sequenceNumber DESC',
        chainLength: chain.length,
        headSequenceNumber: head?.sequenceNumber,
        headRowHash: head?.rowHash,
      },
    };
    const link =
      hasMore && this.store.options.pagingLinkHeader
        ? `<${ctx.url.pathname}?limit=${size}&offset=${offset + size}>; rel="next"`
        : undefined;
    return link ? { data, link } : { data };
  }
}

/** SHA2-512 of the row's RFC 8785 form (sorted keys; the rows hold only strings and integers). */
export function rowHash(row: Rec): string {
  const { rowHash: _h, ...rest } = row;
  return createHash('sha512').update(canonical(rest)).digest('hex');
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Rec;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
