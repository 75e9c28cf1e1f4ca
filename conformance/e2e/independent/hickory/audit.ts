// The audit log of a tenant: newest first, paged JSON:API style (page[cursor], page[size], also limit), each
// entry signed with Ed25519 over its canonical JSON; the public key is a JWK in the self-description.
import { sign } from 'node:crypto';
import type { AuditEntry, State } from './state.ts';
import { ApiError, type Ctx, canonicalJson, nanoid, type Result, stamp } from './util.ts';

export function record(
  state: State,
  tenant: string,
  action: string,
  actor: string,
  resource: { type: string; id: string },
  idempotencyKey?: string,
): void {
  const log = state.audit.get(tenant) ?? [];
  state.audit.set(tenant, log);
  const entry: AuditEntry = {
    id: nanoid(),
    sequence: log.length + 1,
    at: stamp(state.options.timeOffsetMin),
    tenant,
    action,
    actor,
    resource,
    kid: state.auditKey.kid,
  };
  if (idempotencyKey !== undefined) entry.idempotencyKey = idempotencyKey;
  entry.signature = sign(null, Buffer.from(canonicalJson(entry)), state.auditKey.privateKey).toString('base64url');
  log.push(entry);
}

function sizeParam(ctx: Ctx): number {
  const raw = ctx.url.searchParams.get('page[size]') ?? ctx.url.searchParams.get('limit');
  if (raw === null) return 50;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 500) {
    throw new ApiError('invalid_request', 'page[size] (or limit) must be an integer from 1 to 500.');
  }
  return Number(raw);
}

function cursorParam(ctx: Ctx, oldestFirst: boolean): number {
  const raw = ctx.url.searchParams.get('page[cursor]');
  if (raw === null) return oldestFirst ? 0 : Number.POSITIVE_INFINITY;
  const m = /^s(\d+)$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!m) throw new ApiError('invalid_request', 'page[cursor] is not a cursor this log issued.');
  return Number(m[1]);
}

export function auditLog(state: State, ctx: Ctx): Result {
  const size = sizeParam(ctx);
  const oldestFirst = state.options.auditOldestFirst;
  const from = cursorParam(ctx, oldestFirst);
  const log = state.audit.get(ctx.tenant ?? '') ?? [];
  // The cursor is the last sequence of the page before: newest first reads below it, oldest first above it.
  const rest = oldestFirst ? log.filter((e) => e.sequence > from) : log.filter((e) => e.sequence < from).reverse();
  const entries = rest.slice(0, size);
  const last = entries[entries.length - 1];
  let next: string | null = null;
  if (last && rest.length > size) {
    const cursor = Buffer.from(`s${last.sequence}`).toString('base64url');
    next = `/api/public/v1/audit-log?page[cursor]=${cursor}&page[size]=${size}`;
    if (!state.options.auditLinksOnly) ctx.headers.link = `<${next}>; rel="next"`;
  }
  const paging = state.options.auditLinksOnly ? { links: { next } } : { next };
  return {
    status: 200,
    data: {
      count: entries.length,
      entries,
      ...paging,
      integrity: {
        algorithm: 'Ed25519',
        signed: 'each entry: the canonical JSON (keys sorted) of the entry without its signature',
        kid: state.auditKey.kid,
        publicKey: state.auditKey.jwk,
      },
    },
  };
}
