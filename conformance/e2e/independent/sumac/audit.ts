// The audit trail (laravel-auditing style rows): per tenant, newest first, a plain sha256 hash chain anyone
// can recompute, and a proof over the head signed with the application key (HMAC: only sumac can make it).
import { createHash, createHmac } from 'node:crypto';
import type { State } from './state.ts';
import { type Ctx, canonical, ok, stamp } from './support.ts';
import { intParam } from './validate.ts';

export interface AuditRow {
  id: string;
  sequence: number;
  event: string;
  auditable_type: string;
  auditable_id: string;
  causer_id: string;
  request_id: string;
  idempotency_key: string | null;
  url: string;
  new_values: Record<string, unknown>;
  created_at: string;
  prev_hash: string;
  hash: string;
}

const GENESIS = '0'.repeat(64);
const trails = new WeakMap<State, Map<string, AuditRow[]>>();
let seqAll = 0;

function trail(state: State, tenant: string): AuditRow[] {
  let byTenant = trails.get(state);
  if (!byTenant) {
    byTenant = new Map();
    trails.set(state, byTenant);
  }
  let rows = byTenant.get(tenant);
  if (!rows) {
    rows = [];
    byTenant.set(tenant, rows);
  }
  return rows;
}

/** hash = sha256_hex(prev_hash + canonical JSON of the row without its hash). */
export function rowHash(row: Omit<AuditRow, 'hash'>): string {
  return createHash('sha256')
    .update(`${row.prev_hash}${canonical(row)}`)
    .digest('hex');
}

export function record(
  state: State,
  tenant: string,
  event: string,
  subject: { type: string; id: string },
  by: { clientId: string; requestId: string; key: string | null; url: string },
  values: Record<string, unknown>,
): void {
  const rows = trail(state, tenant);
  seqAll += 1;
  const base = {
    id: `aud_${seqAll}`,
    sequence: rows.length + 1,
    event,
    auditable_type: subject.type,
    auditable_id: subject.id,
    causer_id: by.clientId,
    request_id: by.requestId,
    idempotency_key: by.key,
    url: by.url,
    new_values: values,
    created_at: stamp(),
    prev_hash: rows.at(-1)?.hash ?? GENESIS,
  };
  rows.push({ ...base, hash: rowHash(base) });
}

/** GET /audit-log?limit=&page= — a length-aware paginator (per_page is the contract's limit). */
export function listAudit(state: State, ctx: Ctx): void {
  const tenant = ctx.tenant ?? '';
  const q = ctx.url.searchParams;
  const perPage = intParam(
    q.get('limit'),
    'limit',
    Math.min(15, state.opts.pageMax ?? 100),
    1,
    state.opts.pageMax ?? 100,
  );
  const page = intParam(q.get('page'), 'page', 1, 1, 1_000_000);
  const rows = trail(state, tenant);
  // latest() by default; oldest() when the switch asks for it (the order is not shown).
  const newest = state.opts.oldestFirst ? [...rows] : [...rows].reverse();
  const total = newest.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const entries = newest.slice((page - 1) * perPage, page * perPage);
  const path = `${ctx.origin}/api/public/v1/audit-log`;
  const link = (p: number) => `${path}?limit=${perPage}&page=${p}`;
  const head = rows.at(-1);
  const headHash = head?.hash ?? GENESIS;
  const headSeq = head?.sequence ?? 0;
  const proof = {
    chain_algorithm: 'sha256',
    chain_formula: 'hash = sha256_hex(prev_hash || canonical_json(entry without hash)); first prev_hash = 64 zeros',
    head_sequence: headSeq,
    head_hash: headHash,
    signature_algorithm: 'hmac-sha256',
    key_id: 'app-key-1',
    signature: createHmac('sha256', state.appKey).update(`${tenant}:${headSeq}:${headHash}`).digest('hex'),
    signed_at: stamp(),
  };
  const from = entries.length ? (page - 1) * perPage + 1 : null;
  const headers: Record<string, string> = {};
  if (state.opts.linkHeader && page < lastPage) headers.Link = `<${link(page + 1)}>; rel="next"`;
  ok(
    ctx,
    {
      entries,
      proof,
      links: {
        first: link(1),
        last: link(lastPage),
        prev: page > 1 ? link(page - 1) : null,
        next: page < lastPage ? link(page + 1) : null,
      },
      meta: {
        current_page: page,
        from,
        last_page: lastPage,
        path,
        per_page: perPage,
        to: from === null ? null : from + entries.length - 1,
        total,
      },
    },
    {},
    headers,
  );
}
