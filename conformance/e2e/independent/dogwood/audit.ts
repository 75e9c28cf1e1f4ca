// The audit table with a per-tenant hash chain: digest = sha256(previousDigest + canonical entry);
// the answer's proof names the head and signs it with the service's audit key (HMAC-SHA256).
import { createHmac, randomBytes } from 'node:crypto';
import type { AuditEntry, State } from './state.ts';
import { badRequest, type Ctx, canonical, sha256 } from './util.ts';

export const GENESIS = '0'.repeat(64);
const AUDIT_KEY = randomBytes(32);
const KEY_ID = `audit-${randomBytes(3).toString('hex')}`;

export function appendAudit(state: State, ctx: Ctx, action: string, resourceType: string, resourceId: string): void {
  const tenant = ctx.tenant ?? '';
  const list = state.audit.get(tenant) ?? [];
  state.audit.set(tenant, list);
  const prev = list.at(-1);
  const base = {
    seq: list.length + 1,
    action,
    resourceType,
    resourceId,
    actor: `client:${ctx.clientId ?? 'unknown'}`,
    requestId: ctx.requestId,
    idempotencyKey: ctx.idempotencyKey ?? null,
    occurredAt: new Date().toISOString(),
    previousDigest: prev?.digest ?? GENESIS,
  };
  const entry: AuditEntry = { ...base, digest: sha256(base.previousDigest + canonical(base)) };
  list.push(entry);
}

/** GET /audit-log?limit=1..200&before=<seq>: newest first, paged backwards by seq. */
export function listAudit(state: State, ctx: Ctx): Record<string, unknown> {
  if (state.opts.auditPages) return pagedAudit(state, ctx);
  const limitRaw = ctx.query.get('limit');
  const beforeRaw = ctx.query.get('before');
  if (limitRaw !== null && !/^\d+$/.test(limitRaw)) throw badRequest('limit must be an integer from 1 to 200');
  const limit = limitRaw === null ? 50 : Number(limitRaw);
  if (limit < 1 || limit > 200) throw badRequest('limit must be an integer from 1 to 200');
  if (beforeRaw !== null && !/^\d+$/.test(beforeRaw)) throw badRequest('before must be an integer sequence number');
  const all = state.audit.get(ctx.tenant ?? '') ?? [];
  const before = beforeRaw === null ? Number.POSITIVE_INFINITY : Number(beforeRaw);
  const entries = all
    .filter((e) => e.seq < before)
    .reverse()
    .slice(0, limit);
  const last = entries.at(-1);
  return {
    tenant: ctx.tenant,
    count: entries.length,
    entries,
    nextBefore: last && last.seq > 1 ? last.seq : null,
    proof: proof(all, ctx),
  };
}

/** The variant: ?page=1..&pageSize=1..200 (limit is a synonym of pageSize), newest first, with total. */
function pagedAudit(state: State, ctx: Ctx): Record<string, unknown> {
  const num = (name: string, def: number, max: number): number => {
    const raw = ctx.query.get(name);
    if (raw === null) return def;
    if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
      throw badRequest(`${name} must be an integer from 1 to ${max}`);
    return Number(raw);
  };
  const pageSize = num('pageSize', num('limit', 50, 200), 200);
  const page = num('page', 1, 1_000_000);
  const all = state.audit.get(ctx.tenant ?? '') ?? [];
  const entries = [...all].reverse().slice((page - 1) * pageSize, page * pageSize);
  return { tenant: ctx.tenant, page, pageSize, total: all.length, entries, proof: proof(all, ctx) };
}

function proof(all: AuditEntry[], ctx: Ctx): Record<string, unknown> {
  const head = all.at(-1);
  const headDigest = head?.digest ?? GENESIS;
  const headSeq = head?.seq ?? 0;
  return {
    type: 'hash-chain',
    algorithm: 'SHA-256',
    digestInput: 'previousDigest || canonical JSON (sorted keys) of the entry without digest',
    genesis: GENESIS,
    headSeq,
    headDigest,
    keyId: KEY_ID,
    signature: createHmac('sha256', AUDIT_KEY).update(`${ctx.tenant}:${headSeq}:${headDigest}`).digest('hex'),
  };
}
