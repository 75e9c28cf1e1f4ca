// The audit log: per tenant, a hash chain (resty.sha256 + resty.string.to_hex in the original). Lua tables have
// no key order, so the team hashes a pipe-joined line of fixed fields, not an encoded entry:
//   hash = sha256_hex(prev_hash .. "|" .. seq .. "|" .. at .. "|" .. action .. "|" .. resource_id)
// The first entry links to 64 zeros. Pages: newest first by default, `before`/`after` a sequence number.
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, luaList, PREFIX, type Rec } from './http.ts';
import { listOf, type Store } from './state.ts';

const GENESIS = '0'.repeat(64);
export const AUDIT_FORMULA = 'sha256_hex(prev_hash|seq|at|action|resource_id)';

export function record(store: Store, tenant: string, actor: string, action: string, type: string, id: string): void {
  const log = listOf(store.audit, tenant);
  const prev = log.at(-1);
  const seq = log.length + 1;
  const at = new Date().toISOString();
  const nullGenesis = store.options.auditGenesis === 'null';
  const prevHash = prev ? String(prev.hash) : nullGenesis ? null : GENESIS;
  const hash = createHash('sha256')
    .update(`${prevHash ?? ''}|${seq}|${at}|${action}|${id}`)
    .digest('hex');
  log.push({
    seq,
    id: randomUUID(),
    action,
    actor,
    resource_type: type,
    resource_id: id,
    at,
    prev_hash: prevHash,
    hash,
  });
}

function intParam(ctx: Ctx, name: string): number | undefined {
  const v = ctx.url.searchParams.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v)) throw new ApiError(400, 'invalid_request', `${name} must be a non-negative integer`);
  return Number(v);
}

/** GET /audit-log?limit=&before= (newest first) or ?after= (oldest first). */
export function auditPage(store: Store, ctx: Ctx, tenant: string): Rec {
  const limitAsked = intParam(ctx, 'limit') ?? 50;
  if (limitAsked < 1) throw new ApiError(400, 'invalid_request', 'limit must be at least 1');
  // ngx.var.arg_limit clamped, as the team's pager does: a larger limit is served as the largest page.
  const limit = Math.min(limitAsked, store.options.auditMaxPage);
  const log = store.audit.get(tenant) ?? [];
  const oldestFirst = store.options.auditOldestFirst;
  let entries: Rec[];
  let next: string | undefined;
  if (oldestFirst) {
    const after = intParam(ctx, 'after') ?? 0;
    entries = log.filter((e) => e.seq > after).slice(0, limit);
    const last = entries.at(-1);
    if (last && last.seq < log.length) next = `${PREFIX}/audit-log?limit=${limit}&after=${last.seq}`;
  } else {
    const before = intParam(ctx, 'before') ?? Number.MAX_SAFE_INTEGER;
    entries = log
      .filter((e) => e.seq < before)
      .reverse()
      .slice(0, limit);
    const last = entries.at(-1);
    if (last && last.seq > 1) next = `${PREFIX}/audit-log?limit=${limit}&before=${last.seq}`;
  }
  const head = log.at(-1);
  const data: Rec = {
    tenant,
    order: oldestFirst ? 'oldest_first' : 'newest_first',
    count: entries.length,
    entries: luaList(entries),
    integrity: {
      type: 'hash_chain',
      algorithm: 'sha256',
      formula: AUDIT_FORMULA,
      genesis: GENESIS,
      head_seq: head?.seq ?? 0,
      head_hash: head?.hash ?? GENESIS,
    },
  };
  if (next) data.next = next;
  return data;
}
