// The tenant's audit log: newest first, paged Spring-style (page, size; `limit` is an alias of size), and a
// proof per page: SHA-256 over the canonical JSON of the page's entries, signed with HMAC-SHA256 by the
// service's audit key (key id in the proof; partners recompute the digest, support verifies the signature).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Principal } from './auth.ts';
import { type Ctx, canonical, instant, invalid, ok } from './http-kit.ts';
import { BASE } from './options.ts';
import { type AuditEntry, nextId, type State } from './store.ts';

const AUDIT_KEY = randomBytes(32);
export const AUDIT_KEY_ID = 'larch-audit-2026-11';

export function record(
  state: State,
  tenant: string,
  action: string,
  resourceType: string,
  resourceId: string,
  actor: { type: string; id: string },
  ctx: Ctx | null,
  details: Record<string, unknown>,
): void {
  const sequence = state.audit.filter((e) => e.tenant === tenant).length + 1;
  const entry: AuditEntry = {
    id: nextId(),
    sequence,
    tenant,
    occurredAt: instant(),
    action,
    resourceType,
    resourceId,
    actor,
    requestId: ctx?.requestId ?? null,
    idempotencyKey: ctx?.idempotencyKey ?? null,
    details,
  };
  state.audit.push(entry);
}

function pageParam(ctx: Ctx, name: string, fallback: number, min: number, max: number): number {
  const v = ctx.query.get(name);
  if (v === null) return fallback;
  if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > max) {
    throw invalid(
      'Invalid paging parameter',
      `${name} must be an integer from ${min} to ${max}.`,
      'Use page (from 0) and size (1 to 500).',
    );
  }
  return Number(v);
}

/** Reads page and size (or limit) for any paged list. */
export function paging(ctx: Ctx, defaultSize: number): { page: number; size: number } {
  const size = pageParam(ctx, 'size', pageParam(ctx, 'limit', defaultSize, 1, 500), 1, 500);
  return { page: pageParam(ctx, 'page', 0, 0, 1_000_000), size };
}

/**
 * Spring Data's Page: `content` + `page` with RFC 8288 Link headers, or (option `hal`) Spring HATEOAS's
 * PagedModel: `_embedded.<rel>`, `_links.{self,next,prev}.href` and `page`, links in the body only.
 */
export function pageOf<T>(
  state: State,
  ctx: Ctx,
  all: T[],
  page: number,
  size: number,
  path: string,
  rel: string,
): { content: T[]; body: Record<string, unknown> } {
  const content = all.slice(page * size, page * size + size);
  const totalPages = Math.ceil(all.length / size);
  const q = new URLSearchParams(ctx.query);
  q.delete('limit');
  const href = (p: number) => {
    q.set('page', String(p));
    q.set('size', String(size));
    return `${path}?${q.toString()}`;
  };
  const meta = { number: page, size, totalElements: all.length, totalPages };
  const next = page + 1 < totalPages ? href(page + 1) : undefined;
  const prev = page > 0 ? href(page - 1) : undefined;
  if (state.config.hal) {
    const links: Record<string, { href: string }> = { self: { href: href(page) } };
    if (next) links.next = { href: next };
    if (prev) links.prev = { href: prev };
    return { content, body: { _embedded: { [rel]: content }, _links: links, page: meta } };
  }
  if (state.config.pageImpl) {
    // Jackson's serialisation of Spring Data's PageImpl (before Spring Data 3.3): no links at all.
    const pageable = { pageNumber: page, pageSize: size, offset: page * size, paged: true, unpaged: false };
    return {
      content,
      body: {
        content,
        pageable,
        totalElements: all.length,
        totalPages,
        last: page + 1 >= totalPages,
        first: page === 0,
        number: page,
        size,
        numberOfElements: content.length,
        empty: content.length === 0,
      },
    };
  }
  const header: string[] = [];
  if (next) header.push(`<${next}>; rel="next"`);
  if (prev) header.push(`<${prev}>; rel="prev"`);
  if (header.length) ctx.headers.link = header.join(', ');
  return { content, body: { content, page: meta } };
}

export function listAudit(state: State, ctx: Ctx, who: Principal): void {
  const { page, size } = paging(ctx, 20);
  const ordered = state.audit.filter((e) => e.tenant === who.tenant);
  const mine = state.config.auditOldestFirst ? ordered : ordered.reverse();
  const view = mine.map(({ tenant: _t, ...rest }) => rest);
  const p = pageOf(state, ctx, view, page, size, `${BASE}/audit-log`, 'auditEntries');
  const digest = createHash('sha256').update(canonical(p.content)).digest('hex');
  const signedText = `${who.tenant}\n${page}\n${size}\n${mine.length}\n${digest}`;
  const signature = createHmac('sha256', AUDIT_KEY).update(signedText).digest('hex');
  ok(ctx, {
    ...p.body,
    order: state.config.auditOldestFirst ? 'OLDEST_FIRST' : 'NEWEST_FIRST',
    proof: {
      type: 'SIGNED_PAGE_DIGEST',
      digestAlgorithm: 'SHA-256',
      canonicalization: state.config.hal
        ? 'sorted-keys JSON of data._embedded.auditEntries'
        : 'sorted-keys JSON of data.content',
      digest,
      signatureAlgorithm: 'HMAC-SHA256',
      keyId: AUDIT_KEY_ID,
      signedFields: 'tenant LF page LF size LF totalElements LF digest',
      signature,
      signedAt: instant(),
    },
  });
}
