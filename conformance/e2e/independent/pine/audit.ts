// The audit log: one SHA-256 hash chain per tenant. Each entry's `hash` is the lowercase hex SHA-256 of the
// entry without its `hash` field, written as JSON with keys sorted at every depth and no whitespace; `prev`
// is the hash of the entry before (64 zeros for the first). Pages by `before` (an entry id) and `limit`
// (1 to 200, default 50): the newest `limit` entries before `before`, listed oldest first.
import { createHash } from 'node:crypto';
import type { Answer, Ctx } from './http-kit.ts';
import { isoUsec, ok, sortedJson } from './http-kit.ts';
import type { AuditEntry, PineState } from './state.ts';
import { queryInt } from './validate.ts';

export const GENESIS = '0'.repeat(64);
export const MAX_LIMIT = 200;

export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(sortedJson(entry), 'utf8').digest('hex');
}

export function appendAudit(
  state: PineState,
  tenant: string,
  actor: string,
  action: string,
  target: { type: string; id: string },
): void {
  let chain = state.audit.get(tenant);
  if (chain === undefined) {
    chain = [];
    state.audit.set(tenant, chain);
  }
  const body = {
    id: chain.length + 1,
    at: isoUsec(Date.now()),
    tenant,
    actor,
    action,
    target,
    prev: chain.at(-1)?.hash ?? GENESIS,
  };
  chain.push({ ...body, hash: entryHash(body) });
}

export function readAudit(ctx: Ctx, state: PineState): Answer {
  const q = ctx.url.searchParams;
  const limit = queryInt(q, 'limit', 1, MAX_LIMIT) ?? 50;
  const before = queryInt(q, 'before', 1, Number.MAX_SAFE_INTEGER);
  const chain = state.audit.get(ctx.tenant ?? '') ?? [];
  const older = before === undefined ? chain : chain.filter((e) => e.id < before);
  const entries = older.slice(Math.max(0, older.length - limit));
  const first = entries[0];
  const next =
    first !== undefined && first.id > 1 ? `/api/public/v1/audit-log?before=${first.id}&limit=${limit}` : null;
  const head = chain.at(-1);
  return ok({
    count: entries.length,
    entries,
    next,
    proof: {
      algorithm: 'sha256',
      canonical: 'json-sorted-keys',
      ...(state.options.auditJcs === true ? { canonicalization: 'RFC8785' } : {}),
      format:
        'hash = lowercase hex SHA-256 over the UTF-8 JSON of the entry without "hash", object keys sorted at every depth, no whitespace; prev = hash of the previous entry',
      genesis: GENESIS,
      headId: head?.id ?? null,
      headHash: head?.hash ?? GENESIS,
    },
  });
}
