// The audit log: one hash chain per tenant, oldest first. Each entry's `digest` is the lowercase hex
// SHA-256 of JSON.stringify([position, tenant, action, resource_type, resource_id, actor, created_at,
// previous_digest]); the first entry's previous_digest is 64 zeros. Anyone can recompute the chain.
import { createHash } from 'node:crypto';
import { type Call, ok } from './http.ts';
import type { AuditEntry, State } from './state.ts';
import { paginate } from './validate.ts';

export const GENESIS = '0'.repeat(64);
export const SERIALISATION =
  'JSON.stringify([position, tenant, action, resource_type, resource_id, actor, created_at, previous_digest])';

export function digestOf(e: Omit<AuditEntry, 'id' | 'digest' | 'request_id'>): string {
  const basis = JSON.stringify([
    e.position,
    e.tenant,
    e.action,
    e.resource_type,
    e.resource_id,
    e.actor,
    e.created_at,
    e.previous_digest,
  ]);
  return createHash('sha256').update(basis, 'utf8').digest('hex');
}

/** Appends a change of the tenant (only changes are recorded: a refused call changed nothing). */
export function record(
  state: State,
  tenant: string,
  action: string,
  resource: [string, string],
  actor: string,
  requestId: string | null,
): void {
  const chain = state.audit.get(tenant) ?? [];
  state.audit.set(tenant, chain);
  const prev = chain[chain.length - 1];
  const base = {
    position: chain.length + 1,
    tenant,
    action,
    resource_type: resource[0],
    resource_id: resource[1],
    actor,
    created_at: new Date().toISOString(),
    previous_digest: prev?.digest ?? GENESIS,
  };
  chain.push({ id: ++state.seq.audit, request_id: requestId, ...base, digest: digestOf(base) });
}

/** GET /audit-log: page/per_page (or the contract's limit), default 50 a page, with a Link header. */
export function listAudit(state: State, call: Call): void {
  const chain = state.audit.get(call.tenant ?? '') ?? [];
  const ordered = state.options.auditNewestFirst ? [...chain].reverse() : chain;
  const page = paginate(ordered, call.url, call.origin, call.headers, 50);
  const head = chain[chain.length - 1];
  ok(call, {
    tenant: call.tenant,
    order: state.options.auditNewestFirst ? 'newest_first' : 'oldest_first',
    count: page.items.length,
    total: page.total,
    page: page.page,
    per_page: page.perPage,
    entries: page.items,
    integrity: {
      algorithm: 'sha256',
      serialization: SERIALISATION,
      genesis_digest: GENESIS,
      head_digest: head?.digest ?? GENESIS,
      head_position: head?.position ?? 0,
    },
  });
}
