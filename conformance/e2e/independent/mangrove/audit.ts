// The audit log: one SHA-256 hash chain per tenant. Each entry's `digest` is the base64 SHA-256 of the
// entry's canonical JSON without `digest` (so `previous_digest`, the link, is inside what is hashed).
// Served newest first, Kaminari style: `page`, `per_page` (alias `limit`), Link rel=next, X-Total-Count.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, canonical, iso, ok } from './http.ts';
import { nextId, type Store } from './state.ts';

export interface AuditEntry {
  id: string;
  tenant: string;
  position: number;
  action: string;
  resource_type: string;
  resource_id: string;
  actor: string;
  request_id: string;
  changes: Record<string, unknown>;
  created_at: string;
  previous_digest: string | null;
  digest: string;
}

export type AuditLog = Map<string, AuditEntry[]>;

export function digestOf(entry: Omit<AuditEntry, 'digest'>): string {
  return createHash('sha256').update(canonical(entry)).digest('base64');
}

/** Who made a change: a call (its Ctx) or a background job (actor `system:<job>`, request id its jid). */
export interface Actor {
  tenant: string;
  clientId: string;
  requestId: string;
}

/**
 * Appends one change of a tenant: an accepted modifying call, or a job's state change (paper_trail style
 * `[before, after]` pairs). Refusals change nothing and stay out.
 */
export function record(
  store: Store,
  log: AuditLog,
  ctx: Actor,
  action: string,
  resourceType: string,
  resourceId: string,
  changes: Record<string, unknown>,
): void {
  const chain = log.get(ctx.tenant) ?? [];
  const last = chain[chain.length - 1];
  const entry: Omit<AuditEntry, 'digest'> = {
    id: nextId(store, 'audit_entries'),
    tenant: ctx.tenant,
    position: chain.length + 1,
    action,
    resource_type: resourceType,
    resource_id: resourceId,
    actor: ctx.clientId,
    request_id: ctx.requestId,
    changes,
    created_at: iso(),
    previous_digest: last
      ? last.digest
      : store.options.auditGenesis === 'zeros'
        ? Buffer.alloc(32).toString('base64')
        : null,
  };
  chain.push({ ...entry, digest: digestOf(entry) });
  log.set(ctx.tenant, chain);
}

/** A positive integer parameter; above `max` it is clamped (Kaminari's max_per_page), not refused. */
function positiveInt(ctx: Ctx, name: string, max: number): number | undefined {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return undefined;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1) {
    throw new ApiError('invalid_request', `${name} must be a positive integer`, `param: ${name}`);
  }
  return Math.min(Number(raw), max);
}

/** GET /audit-log?page=&per_page= (or limit=): one page of the tenant's chain and the chain's head. */
export function auditIndex(store: Store, log: AuditLog, ctx: Ctx): void {
  const max = store.options.auditMaxPerPage;
  const perPage = positiveInt(ctx, 'per_page', max) ?? positiveInt(ctx, 'limit', max) ?? Math.min(25, max);
  const page = positiveInt(ctx, 'page', Number.MAX_SAFE_INTEGER) ?? 1;
  const chain = log.get(ctx.tenant) ?? [];
  const ordered = store.options.auditOldestFirst ? chain : [...chain].reverse();
  const entries = ordered.slice((page - 1) * perPage, page * perPage);
  const totalPages = Math.max(1, Math.ceil(chain.length / perPage));
  ctx.headers['X-Total-Count'] = String(chain.length);
  ctx.headers['X-Per-Page'] = String(perPage);
  ctx.headers['X-Page'] = String(page);
  if (page < totalPages) {
    const next = new URL(ctx.url.pathname, `http://${ctx.req.headers.host ?? '127.0.0.1'}`);
    next.searchParams.set('page', String(page + 1));
    next.searchParams.set('per_page', String(perPage));
    ctx.headers.Link = `<${next.toString()}>; rel="next"`;
  }
  const head = chain[chain.length - 1];
  ok(ctx, {
    tenant: ctx.tenant,
    count: entries.length,
    total_count: chain.length,
    page,
    per_page: perPage,
    total_pages: totalPages,
    next_page: page < totalPages ? page + 1 : null,
    order: store.options.auditOldestFirst ? 'oldest_first' : 'newest_first',
    entries,
    proof: {
      algorithm: 'sha256',
      encoding: 'base64',
      covers: 'canonical JSON (sorted keys) of the entry without digest; previous_digest links the chain',
      chain_length: chain.length,
      head_digest: head ? head.digest : null,
    },
  });
}
