// The audit log: one append-only hash chain per tenant. Format "buckeye-audit/v1": each entry's `hash` is
// lowercase hex SHA-256 over the UTF-8 text
//   prevHash|seq|at|tenant|actor|action|resource.type|resource.id|requestId
// and `prevHash` is the previous entry's hash (64 zeros before the first). The answer's `proof` names the
// format and the chain's head, so a reader recomputes every entry and links it to its predecessor.
import { createHash } from 'node:crypto';
import type { Access } from './auth.ts';
import { badRequest, type Ctx, ok } from './http-kit.ts';
import type { State } from './state.ts';
import { newId, timestamp } from './values.ts';

export interface AuditEntry {
  id: string;
  seq: number;
  at: string;
  tenant: string;
  actor: string;
  action: string;
  resource: { type: string; id: string };
  requestId: string;
  prevHash: string;
  hash: string;
}

export const GENESIS = '0'.repeat(64);
export const HASH_INPUT = '{prevHash}|{seq}|{at}|{tenant}|{actor}|{action}|{resource.type}|{resource.id}|{requestId}';

export function entryHash(e: Omit<AuditEntry, 'hash' | 'id'>): string {
  const text = [e.prevHash, e.seq, e.at, e.tenant, e.actor, e.action, e.resource.type, e.resource.id, e.requestId].join(
    '|',
  );
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Appends one change of the tenant to its chain. */
export function record(
  state: State,
  tenant: string,
  actor: string,
  action: string,
  resource: { type: string; id: string },
  requestId: string,
): void {
  const chain = state.audit.get(tenant) ?? [];
  const last = chain.at(-1);
  const base = {
    seq: (last?.seq ?? 0) + 1,
    at: timestamp(),
    tenant,
    actor,
    action,
    resource,
    requestId,
    prevHash: last?.hash ?? GENESIS,
  };
  chain.push({ id: newId('aud'), ...base, hash: entryHash(base) });
  state.audit.set(tenant, chain);
}

function intParam(ctx: Ctx, name: string, min: number, max: number): number | undefined {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw badRequest(`${name} must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

/** GET /audit-log?limit=&cursor=: newest first, `cursor` the seq to continue below (or oldest first, above). */
export function listAudit(state: State, ctx: Ctx, access: Access): void {
  const limit = intParam(ctx, 'limit', 1, 500) ?? 50;
  const cursor = intParam(ctx, 'cursor', 0, Number.MAX_SAFE_INTEGER);
  const chain = state.audit.get(access.tenant) ?? [];
  const asc = state.options.auditOldestFirst;
  const below = asc
    ? chain.filter((e) => cursor === undefined || e.seq > cursor)
    : chain.filter((e) => cursor === undefined || e.seq < cursor).reverse();
  const entries = below.slice(0, limit);
  const last = entries.at(-1);
  const head = chain.at(-1);
  ok(ctx, {
    tenant: access.tenant,
    count: entries.length,
    entries,
    nextCursor: below.length > limit && last ? String(last.seq) : null,
    proof: {
      format: 'buckeye-audit/v1',
      algorithm: 'sha256',
      encoding: 'hex',
      input: HASH_INPUT,
      genesis: GENESIS,
      chainLength: chain.length,
      head: head ? { seq: head.seq, hash: head.hash } : null,
    },
  });
}
