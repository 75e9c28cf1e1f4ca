// The audit log: one hash chain per tenant. Each entry carries a consecutive sequence, previousHash (the hash
// of the entry before it, 64 zeros for the first) and hash = SHA-256 hex over previousHash + "\n" + the
// canonical JSON (sorted keys, no spaces) of the entry without its hash. A page is newest first and carries a
// checkpoint {sequence, hash, at} of the tenant's newest entry, so a client can pin the head it verified.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, now, ok, uuid } from './http.ts';
import type { State } from './store.ts';

const GENESIS = '0'.repeat(64);

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export function appendAudit(state: State, tenant: string, fields: Record<string, unknown>): void {
  const chain = state.audit.get(tenant) ?? [];
  const previous = chain[chain.length - 1];
  const previousHash = typeof previous?.hash === 'string' ? previous.hash : GENESIS;
  const entry: Record<string, unknown> = {
    id: uuid(),
    sequence: chain.length + 1,
    at: now(),
    tenant,
    ...fields,
    previousHash,
  };
  for (const k of Object.keys(entry)) if (entry[k] === undefined) delete entry[k];
  entry.hash = createHash('sha256')
    .update(`${previousHash}\n${canonical(entry)}`)
    .digest('hex');
  chain.push(entry);
  state.audit.set(tenant, chain);
}

function positiveInt(value: string | null, name: string, fallback: number, max: number): number {
  if (value === null) return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1 || Number(value) > max) {
    throw new ApiError(
      'invalid_request',
      `${name} must be an integer from 1 to ${max}.`,
      `Send ${name} between 1 and ${max}.`,
    );
  }
  return Number(value);
}

/** GET /audit-log?limit=1..500 (default 50)&cursor=<sequence>: entries after the cursor in the page's order. */
export function readAudit(state: State, ctx: Ctx): void {
  const chain = state.audit.get(ctx.tenant ?? '') ?? [];
  const limit = positiveInt(ctx.url.searchParams.get('limit'), 'limit', 50, 500);
  const rawCursor = ctx.url.searchParams.get('cursor');
  const cursor = rawCursor === null ? null : positiveInt(rawCursor, 'cursor', 1, 999_999_999);
  const oldestFirst = state.options.auditOldestFirst === true;
  const ordered = oldestFirst ? chain : [...chain].reverse();
  const seq = (e: Record<string, unknown>): number => Number(e.sequence);
  const rest = cursor === null ? ordered : ordered.filter((e) => (oldestFirst ? seq(e) > cursor : seq(e) < cursor));
  const entries = rest.slice(0, limit);
  const last = entries[entries.length - 1];
  const head = chain[chain.length - 1];
  ok(ctx, {
    tenant: ctx.tenant,
    order: oldestFirst ? 'OLDEST_FIRST' : 'NEWEST_FIRST',
    count: entries.length,
    entries,
    nextCursor: rest.length > entries.length && last ? String(last.sequence) : null,
    checkpoint: head
      ? { sequence: head.sequence, hash: head.hash, at: head.at }
      : { sequence: 0, hash: GENESIS, at: null },
    integrity: {
      algorithm: 'SHA-256',
      chain: 'hash = sha256_hex(previousHash + "\\n" + canonical JSON of the entry without hash)',
      genesis: GENESIS,
    },
  });
}
