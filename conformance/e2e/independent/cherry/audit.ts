// The audit log: per tenant, hash-chained. Each entry's `parent` is the previous entry's `hash` (64 zeros for the
// first); `hash` = lowercase hex SHA-256 over the canonical form, the fields joined by line feeds:
//   id \n at \n actor \n action \n resourceType \n resourceId \n parent
// Served newest first, keyset paged by `page[after]` (an entry id) and `page[size]` (or `limit`), `links.next`.
import { createHash } from 'node:crypto';
import { ApiError, type Conn } from './conn.ts';
import { nextId, type Store } from './store.ts';

export interface AuditEntry {
  id: string;
  type: 'audit_entry';
  at: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  idempotencyKey: string | null;
  changes: Record<string, unknown>;
  parent: string;
  hash: string;
}

export type AuditLog = Map<string, AuditEntry[]>;

export const GENESIS = '0'.repeat(64);

export function canonicalForm(e: Omit<AuditEntry, 'hash'>): string {
  return [e.id, e.at, e.actor, e.action, e.resourceType, e.resourceId, e.parent].join('\n');
}

export function record(
  log: AuditLog,
  store: Store,
  tenant: string,
  entry: {
    at: string;
    actor: string;
    action: string;
    resourceType: string;
    resourceId: string;
    idempotencyKey?: string;
    changes: Record<string, unknown>;
  },
): void {
  const list = log.get(tenant) ?? [];
  log.set(tenant, list);
  const parent = list[list.length - 1]?.hash ?? GENESIS;
  const base = {
    id: nextId(store, tenant, 'audit'),
    type: 'audit_entry' as const,
    ...entry,
    idempotencyKey: entry.idempotencyKey ?? null,
    parent,
  };
  list.push({ ...base, hash: createHash('sha256').update(canonicalForm(base)).digest('hex') });
}

/** Parses the keyset page parameters shared by the audit log and the delivery log. */
export function pageParams(conn: Conn, defaultSize: number, max = 200): { size: number; after: number | undefined } {
  const rawSize = conn.query.get('page[size]') ?? conn.query.get('limit') ?? String(defaultSize);
  if (!/^\d{1,4}$/.test(rawSize) || Number(rawSize) < 1 || Number(rawSize) > max) {
    throw new ApiError('invalid_request', `page[size] must be an integer from 1 to ${max}`, {
      pointer: '/query/page[size]',
    });
  }
  const rawAfter = conn.query.get('page[after]');
  if (rawAfter !== null && !/^\d{1,15}$/.test(rawAfter)) {
    throw new ApiError('invalid_request', 'page[after] must be an entry id', { pointer: '/query/page[after]' });
  }
  return { size: Number(rawSize), after: rawAfter === null ? undefined : Number(rawAfter) };
}

export function nextLink(path: string, size: number, lastId: string): string {
  return `${path}?page[after]=${lastId}&page[size]=${size}`;
}

/** GET /audit-log: one page, newest first, with the chain's head as the proof of integrity. */
export function auditPage(
  log: AuditLog,
  tenant: string,
  conn: Conn,
  defaultSize: number,
): { data: Record<string, unknown>; link?: string } {
  const { size, after } = pageParams(conn, defaultSize);
  const all = [...(log.get(tenant) ?? [])].reverse();
  const from = after === undefined ? all : all.filter((e) => Number(e.id) < after);
  const entries = from.slice(0, size);
  const last = entries[entries.length - 1];
  const next = from.length > size && last ? nextLink(conn.path, size, last.id) : null;
  const head = all[0];
  return {
    data: {
      count: entries.length,
      entries,
      proof: {
        type: 'hash_chain',
        algorithm: 'sha256',
        linkField: 'parent',
        hashField: 'hash',
        canonicalForm: 'id\\nat\\nactor\\naction\\nresourceType\\nresourceId\\nparent',
        genesis: GENESIS,
        head: head?.hash ?? GENESIS,
        length: all.length,
      },
      links: { self: conn.path, next },
    },
    link: next ?? undefined,
  };
}
