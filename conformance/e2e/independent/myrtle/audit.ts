// Audit log with a hash chain: each entry's hash = sha256 hex of "prev_hash|seq|at|action|target_id"
// (the team's habit: a chained digest column computed in Python, genesis prev_hash an empty string).
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, isoNow, type Rec } from './http.ts';
import type { Store } from './state.ts';

export function appendAudit(s: Store, tenant: string, action: string, targetId: string): void {
  const mine = s.audit.filter((e) => e.tenant === tenant);
  const prev = mine[mine.length - 1];
  const seq = mine.length + 1;
  const prevHash = prev ? String(prev.hash) : '';
  const at = isoNow();
  const hash = createHash('sha256').update(`${prevHash}|${seq}|${at}|${action}|${targetId}`).digest('hex');
  s.audit.push({ id: randomUUID(), tenant, seq, at, action, targetId, prevHash: prevHash || null, hash });
}

/** GET /audit-log?limit=&after=: newest first, keyset paging by seq (`after` = the last seq read). */
export function listAudit(s: Store, ctx: Ctx): Rec {
  const q = ctx.url.searchParams;
  const rawLimit = q.get('limit') ?? '50';
  const limit = Number(rawLimit);
  if (!/^\d+$/.test(rawLimit) || limit < 1)
    throw new ApiError('invalid_request', 'Query limit must be a positive integer.');
  const after = q.get('after');
  if (after !== null && !/^\d+$/.test(after)) throw new ApiError('invalid_request', 'Query after must be an integer.');
  let entries = s.audit.filter((e) => e.tenant === ctx.tenant).reverse();
  if (after !== null) entries = entries.filter((e) => e.seq < Number(after));
  const page = entries.slice(0, Math.min(limit, s.opts.auditPageMax)).map(({ tenant: _t, ...e }) => e);
  const last = page[page.length - 1];
  const head = s.audit.filter((e) => e.tenant === ctx.tenant).at(-1);
  return {
    count: page.length,
    entries: page,
    nextAfter: entries.length > page.length && last ? last.seq : null,
    integrity: {
      algorithm: 'sha256',
      chain: 'hash = sha256(prevHash|seq|at|action|targetId)',
      headHash: head?.hash ?? null,
    },
  };
}
