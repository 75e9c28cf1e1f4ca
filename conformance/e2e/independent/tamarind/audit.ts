// The audit log: an append-only SQLAlchemy table with a hash chain per tenant. Each row's entry_hash is
// the SHA-256 (hex) of the row without entry_hash, serialised as json.dumps(row, sort_keys=True,
// separators=(",", ":")); prev_hash is the tenant's previous entry_hash (the first row links to null, or to
// the SHA-256 of the tenant's name with the `seeded` genesis). The page carries the chain head as its proof.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx } from './http.ts';
import { sortedJson } from './idempotency.ts';
import { type AuditEntry, type Json, nowIso, type Store } from './state.ts';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export function record(
  store: Store,
  tenant: string,
  actor: string,
  action: string,
  resourceType: string,
  resourceId: string,
): void {
  const previous = store.audit.filter((e) => e.tenant === tenant).at(-1);
  const genesis = store.options.auditGenesis === 'seeded' ? sha256(tenant) : null;
  const row = {
    id: store.seq.take('audit'),
    tenant,
    action,
    actor,
    resource_type: resourceType,
    resource_id: resourceId,
    at: nowIso(),
    prev_hash: previous ? previous.entry_hash : genesis,
  };
  const entry: AuditEntry = { ...row, entry_hash: sha256(sortedJson(row)) };
  store.audit.push(entry);
}

function intParam(ctx: Ctx, name: string, fallback: number, min: number): number {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ApiError('invalid_request', `Invalid query parameter '${name}'`, `'${raw}' is not an integer >= ${min}`);
  }
  return Number(raw);
}

/** GET /audit-log?limit=&offset=: offset paging; a limit above the maximum is clamped, or refused when strict. */
export function listAudit(store: Store, ctx: Ctx): Json {
  const tenant = ctx.tenant ?? '';
  const { auditMaxLimit: max, auditLimitStrict: strict } = store.options;
  const asked = intParam(ctx, 'limit', store.options.auditDefaultLimit, 1);
  if (strict && asked > max) {
    throw new ApiError(
      'invalid_request',
      "Invalid query parameter 'limit'",
      `${asked} is greater than the maximum of ${max}`,
    );
  }
  const limit = Math.min(asked, max);
  const offset = intParam(ctx, 'offset', 0, 0);
  const rows = store.audit.filter((e) => e.tenant === tenant);
  const ordered = store.options.auditOldestFirst ? rows : [...rows].reverse();
  const page = ordered.slice(offset, offset + limit);
  const head = rows.at(-1);
  const next = offset + limit < rows.length ? offset + limit : null;
  return {
    tenant,
    count: page.length,
    total: rows.length,
    limit,
    offset,
    next_offset: next,
    order: store.options.auditOldestFirst ? 'oldest_first' : 'newest_first',
    entries: page,
    proof: {
      type: 'sha256-hash-chain',
      canonicalization: 'json-sorted-keys-compact',
      hash_field: 'entry_hash',
      link_field: 'prev_hash',
      genesis: store.options.auditGenesis === 'seeded' ? 'sha256(tenant)' : null,
      head_id: head?.id ?? null,
      head_hash: head?.entry_hash ?? null,
      length: rows.length,
    },
  };
}
