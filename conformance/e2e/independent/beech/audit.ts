// The per-tenant audit log (audited gem style): every entry carries a SHA-256 digest of its canonical JSON, and
// each page served is signed with Ed25519 (public key in the self-description). Newest first, Kaminari paging.
import { createHash, sign } from 'node:crypto';
import { ApiError, type Ctx, canonical } from './http-kit.ts';
import { type AuditEntry, type Beech, nextId, stamp } from './state.ts';

export const MAX_PER_PAGE = 100;

export function record(
  s: Beech,
  ctx: Ctx,
  action: string,
  resourceType: string,
  resourceId: string,
  changes: Record<string, unknown>,
): void {
  const tenant = ctx.tenant ?? '-';
  const list = s.audit.get(tenant) ?? [];
  s.audit.set(tenant, list);
  const at = stamp(s);
  const entry: Omit<AuditEntry, 'digest'> = {
    id: nextId(s, 'audits'),
    seq: list.length + 1,
    action,
    resourceType,
    resourceId,
    actor: ctx.clientId ?? '-',
    requestId: ctx.requestId,
    idempotencyKey: ctx.idemKey ?? null,
    changes,
    createdAt: at,
    created_at: at,
  };
  list.push({ ...entry, digest: createHash('sha256').update(canonical(entry)).digest('hex') });
}

function positiveInt(v: string | null, name: string): number | undefined {
  if (v === null) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new ApiError('invalid_request', `${name} must be a positive integer`);
  return Number(v);
}

/** Kaminari: page (1-based) and per_page (the interface's `limit` is an alias), capped at 100. */
export function pageParams(ctx: Ctx, fallback: number): { page: number; perPage: number } {
  const q = ctx.url.searchParams;
  const page = positiveInt(q.get('page'), 'page') ?? 1;
  const perPage = Math.min(
    MAX_PER_PAGE,
    positiveInt(q.get('per_page'), 'per_page') ?? positiveInt(q.get('limit'), 'limit') ?? fallback,
  );
  return { page, perPage };
}

/** X-Total, X-Total-Pages, X-Page, X-Per-Page, X-Next-Page and a Link rel="next" (api-pagination gem). */
export function paginate<T>(ctx: Ctx, all: T[], page: number, perPage: number, link = true): T[] {
  const total = all.length;
  const pages = Math.max(1, Math.ceil(total / perPage));
  ctx.headers['X-Total'] = String(total);
  ctx.headers['X-Total-Pages'] = String(pages);
  ctx.headers['X-Page'] = String(page);
  ctx.headers['X-Per-Page'] = String(perPage);
  if (page < pages) {
    ctx.headers['X-Next-Page'] = String(page + 1);
    const next = new URL(ctx.url.href);
    next.searchParams.set('page', String(page + 1));
    next.searchParams.set('per_page', String(perPage));
    next.searchParams.delete('limit');
    if (link) ctx.headers.Link = `<${next.pathname}${next.search}>; rel="next"`;
  }
  return all.slice((page - 1) * perPage, page * perPage);
}

export function auditIndex(s: Beech, ctx: Ctx): Record<string, unknown> {
  const tenant = ctx.tenant ?? '-';
  const { page, perPage } = pageParams(ctx, 25);
  const all = s.audit.get(tenant) ?? [];
  const newestFirst = s.options.oldestFirst === true ? [...all] : [...all].reverse();
  const entries = paginate(ctx, newestFirst, page, perPage, s.options.noLinkHeader !== true);
  const signedAt = stamp(s);
  const message = { tenant, page, perPage, total: newestFirst.length, digests: entries.map((e) => e.digest), signedAt };
  const signature = sign(null, Buffer.from(canonical(message)), s.auditKey.privateKey).toString('base64');
  return {
    tenant,
    count: entries.length,
    entries,
    proof: {
      type: 'page-signature',
      algorithm: 'Ed25519',
      digestAlgorithm: 'sha256',
      canonicalization: 'sorted-keys JSON',
      keyId: s.auditKey.keyId,
      message,
      signature,
      verify:
        'Ed25519 signature over the sorted-keys JSON of proof.message with the key published at GET /api/public/v1',
    },
  };
}
