// Audit log: one hash chain per tenant. entryHash = UPPER(hex(SHA-256(previousEntryHash + "\n" + C))) where C is
// the entry without entryHash as JSON with keys sorted (no spaces); the first entry's previousEntryHash is 64 zeros.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, canonical, newId, ok, stamp } from './http-kit.ts';
import type { AuditEntry, Store } from './state.ts';

export const GENESIS = '0'.repeat(64);

export function hashEntry(entry: Omit<AuditEntry, 'entryHash'>): string {
  return createHash('sha256')
    .update(`${entry.previousEntryHash}\n${canonical(entry)}`, 'utf8')
    .digest('hex')
    .toUpperCase();
}

/** Records a change of the tenant (successful modifying calls and state changes only). */
export function record(
  store: Store,
  tenant: string,
  action: string,
  resourceType: string,
  resourceId: string,
  who: { actor: string; requestId: string; idempotencyKey?: string },
): void {
  const chain = store.audit.get(tenant) ?? [];
  store.audit.set(tenant, chain);
  const prev = chain[chain.length - 1];
  const base = {
    sequenceNumber: chain.length + 1,
    id: newId(),
    occurredAt: stamp(),
    action,
    resourceType,
    resourceId,
    actor: who.actor,
    requestId: who.requestId,
    idempotencyKey: who.idempotencyKey ?? null,
    previousEntryHash: prev ? prev.entryHash : GENESIS,
  };
  chain.push({ ...base, entryHash: hashEntry(base) });
}

function intParam(ctx: Ctx, name: string, min: number, max: number, fallback: number): number {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ApiError(
      'invalid_request',
      `The query parameter '${name}' is invalid.`,
      `'${name}' must be an integer from ${min} to ${max}.`,
    );
  }
  return Number(raw);
}

/** One page: oldest first after `afterSequenceNumber` (default), or newest first before `beforeSequenceNumber`. */
function page(
  store: Store,
  ctx: Ctx,
  chain: AuditEntry[],
  limit: number,
): { entries: AuditEntry[]; next: string | null } {
  const base = `${ctx.origin}/api/public/v1/audit-log?limit=${limit}`;
  if (store.options.auditNewestFirst) {
    const before = intParam(ctx, 'beforeSequenceNumber', 1, Number.MAX_SAFE_INTEGER, chain.length + 1);
    const entries = chain
      .filter((e) => e.sequenceNumber < before)
      .slice(-limit)
      .reverse();
    const last = entries[entries.length - 1];
    return {
      entries,
      next:
        last !== undefined && last.sequenceNumber > 1 ? `${base}&beforeSequenceNumber=${last.sequenceNumber}` : null,
    };
  }
  const after = intParam(ctx, 'afterSequenceNumber', 0, Number.MAX_SAFE_INTEGER, 0);
  const entries = chain.filter((e) => e.sequenceNumber > after).slice(0, limit);
  const last = entries[entries.length - 1];
  return {
    entries,
    next:
      last !== undefined && last.sequenceNumber < chain.length
        ? `${base}&afterSequenceNumber=${last.sequenceNumber}`
        : null,
  };
}

/** GET /audit-log?limit=: one page of the tenant's chain, its head and how to verify it (nextLink pages on). */
export function listAudit(store: Store, ctx: Ctx, tenant: string): void {
  const limit = intParam(ctx, 'limit', 1, 500, 50);
  const chain = store.audit.get(tenant) ?? [];
  const { entries, next } = page(store, ctx, chain, limit);
  const head = chain[chain.length - 1];
  ok(ctx, {
    tenant,
    count: entries.length,
    entries,
    chainHead: { sequenceNumber: head?.sequenceNumber ?? 0, entryHash: head?.entryHash ?? GENESIS },
    integrity: {
      algorithm: 'SHA-256',
      encoding: 'hex-uppercase',
      chain:
        'entryHash = SHA-256(previousEntryHash + "\\n" + JSON of the entry without entryHash, keys sorted, no whitespace)',
      genesis: GENESIS,
    },
    nextLink: next,
  });
}
