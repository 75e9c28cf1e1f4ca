// Audit log: one hash chain per tenant. Entry {seq, action, target, at, hash, prev}; hash is the hex
// SHA-256 of the line `seq|action|target|at|prev` (prev of seq 1: 64 zeros). Newest first; the page
// carries proof {from, to, head}: its lowest and highest seq and the hash of the tenant's newest entry.
import { type Ctx, invalid, ok } from './http.ts';
import { now, type State, sha256 } from './state.ts';

export interface AuditEntry {
  seq: number;
  action: string;
  target: string;
  at: string;
  hash: string;
  prev: string;
}

export const GENESIS = '0'.repeat(64);
const logs = new WeakMap<object, Map<string, AuditEntry[]>>();

function logOf(state: State, tenant: string): AuditEntry[] {
  let m = logs.get(state);
  if (!m) {
    m = new Map();
    logs.set(state, m);
  }
  let l = m.get(tenant);
  if (!l) {
    l = [];
    m.set(tenant, l);
  }
  return l;
}

export const auditLine = (e: Omit<AuditEntry, 'hash'>): string => `${e.seq}|${e.action}|${e.target}|${e.at}|${e.prev}`;

/** Appends one change of the tenant (only changes that happened; refusals are not recorded). */
export function record(state: State, tenant: string, action: string, target: string): void {
  const log = logOf(state, tenant);
  const last = log[log.length - 1];
  const e = { seq: (last?.seq ?? 0) + 1, action, target, at: now(state), prev: last?.hash ?? GENESIS };
  log.push({ ...e, hash: sha256(auditLine(e)) });
}

function intParam(ctx: Ctx, name: string, min: number, max: number): number | undefined {
  const v = ctx.url.searchParams.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw invalid(`Query ${name} must be an integer ${min} to ${max}.`, `${name}: ${v}`);
  return Number(v);
}

/** GET /audit-log?limit=1..200 (default 50)&before=<seq>: newest first, `next` names the following page. */
export function listAudit(ctx: Ctx): void {
  const tenant = ctx.auth?.tenant ?? '';
  const limit = intParam(ctx, 'limit', 1, ctx.state.opts.auditMaxLimit) ?? 50;
  const before = intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER);
  const log = logOf(ctx.state, tenant);
  const asc = ctx.state.opts.auditOldestFirst;
  const after = intParam(ctx, 'after', 0, Number.MAX_SAFE_INTEGER);
  // Newest first, paged with ?before=<seq>; oldestFirst: oldest first, paged with ?after=<seq>.
  const rest = asc
    ? log.filter((e) => after === undefined || e.seq > after)
    : log.filter((e) => before === undefined || e.seq < before).reverse();
  const entries = rest.slice(0, limit);
  const last = entries[entries.length - 1];
  const more = rest.length > entries.length && last !== undefined;
  const lo = asc ? entries[0] : last;
  const hi = asc ? last : entries[0];
  ok(ctx, {
    tenant,
    count: entries.length,
    entries,
    proof: {
      algorithm: 'sha256',
      line: 'seq|action|target|at|prev',
      from: lo?.seq ?? null,
      to: hi?.seq ?? null,
      head: log[log.length - 1]?.hash ?? GENESIS,
    },
    next: more ? `/api/public/v1/audit-log?limit=${limit}&${asc ? 'after' : 'before'}=${last.seq}` : null,
  });
}
