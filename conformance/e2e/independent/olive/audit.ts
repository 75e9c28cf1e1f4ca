// The audit log: per tenant a hash chain over canonical JSON (hash = SHA-256 hex of the entry without its
// own hash, prevHash included), listed oldest first in pages; each page carries a signed tree head: an
// Ed25519 signature over the canonical JSON of {tenant, size, headHash, pageFrom, pageTo, signedAt}.
// How to verify: see README.md ("Verifying the audit log").
import { createHash, sign } from 'node:crypto';
import type { Ctx } from './mux.ts';
import type { AuditRow, State } from './state.ts';
import { canonicalJson, invalid, nextId, now } from './util.ts';

export const GENESIS = '0'.repeat(64);

export function appendAudit(
  state: State,
  tenant: string,
  action: string,
  actor: string,
  resource: { type: string; id: string },
  requestId: string,
  idempotencyKey?: string,
): void {
  // One chain per tenant, or one for the whole service (a tenant reads its own entries of it).
  const chain = state.options.globalChain ? '*' : tenant;
  const rows = state.audit.get(chain) ?? [];
  state.audit.set(chain, rows);
  const prev = rows.at(-1);
  const entry: Omit<AuditRow, 'hash'> = {
    seq: rows.length + 1,
    id: nextId(),
    at: now(state.options.utcOffsetMinutes).text,
    tenant,
    action,
    actor,
    resource,
    requestId,
    ...(idempotencyKey ? { idempotencyKey } : {}),
    prevHash: prev ? prev.hash : GENESIS,
  };
  const hash = createHash('sha256').update(canonicalJson(entry)).digest('hex');
  rows.push({ ...entry, hash });
}

function intParam(ctx: Ctx, name: string, min: number, max: number, fallback: number): number {
  const raw = ctx.query.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) throw invalid(`${name}: must be an integer`);
  const n = Number(raw);
  if (n < min || n > max) throw invalid(`${name}: must be between ${min} and ${max}`);
  return n;
}

export function readAudit(state: State, ctx: Ctx): Record<string, unknown> {
  const limit = intParam(ctx, 'limit', 1, 500, 50);
  const chain = state.audit.get(state.options.globalChain ? '*' : ctx.tenant) ?? [];
  const rows = chain.filter((r) => r.tenant === ctx.tenant);
  const newest = state.options.auditNewestFirst === true;
  // `after` is the last seq read (oldest first), `before` the last seq read (newest first).
  let page: AuditRow[];
  let next: string | undefined;
  if (newest) {
    const before = intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    const older = rows.filter((r) => r.seq < before);
    page = older.slice(-limit).reverse();
    const last = page.at(-1);
    if (last && older.length > limit) next = `/api/public/v1/audit-log?limit=${limit}&before=${last.seq}`;
  } else {
    const after = state.options.auditOpaqueCursor
      ? decodeCursor(ctx.query.get('cursor'))
      : intParam(ctx, 'after', 0, Number.MAX_SAFE_INTEGER, 0);
    const newer = rows.filter((r) => r.seq > after);
    page = newer.slice(0, limit);
    const last = page.at(-1);
    if (last && newer.length > limit) next = `/api/public/v1/audit-log?limit=${limit}&after=${last.seq}`;
    if (next && last && state.options.auditOpaqueCursor) {
      const nextCursor = Buffer.from(`seq:${last.seq}`).toString('base64url');
      return page2(state, ctx, page, chain, newest, { nextCursor });
    }
  }
  if (next) ctx.res.setHeader('link', `<${next}>; rel="next"`);
  return page2(state, ctx, page, chain, newest, next ? { next } : {});
}

function decodeCursor(raw: string | null): number {
  if (raw === null) return 0;
  const m = /^seq:(\d{1,15})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!m) throw invalid('cursor: not a cursor this log issued');
  return Number(m[1]);
}

function page2(
  state: State,
  ctx: Ctx,
  page: AuditRow[],
  chain: AuditRow[],
  newest: boolean,
  paging: Record<string, string>,
): Record<string, unknown> {
  const head = chain.at(-1);
  const signed = {
    tenant: ctx.tenant,
    size: chain.length,
    headHash: head ? head.hash : GENESIS,
    pageFrom: page[0]?.seq ?? 0,
    pageTo: page.at(-1)?.seq ?? 0,
    signedAt: now(state.options.utcOffsetMinutes).text,
  };
  const signature = sign(null, Buffer.from(canonicalJson(signed)), state.auditKey.privateKey).toString('base64url');
  const publicKey = state.auditKey.publicKey.export({ format: 'der', type: 'spki' }).toString('base64url');
  return {
    tenant: ctx.tenant,
    order: newest ? 'newest_first' : 'oldest_first',
    count: page.length,
    entries: page,
    ...paging,
    treeHead: {
      ...signed,
      algorithm: 'Ed25519',
      hashAlgorithm: 'sha256',
      canonicalization: 'sorted-keys-compact-json',
      keyId: state.auditKey.keyId,
      publicKey,
      signature,
    },
  };
}
