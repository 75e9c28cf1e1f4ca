// The audit log, paper_trail flavoured: one "version" per change of a tenant's records (event create /
// update / destroy, item type and id, whodunnit, object_changes), oldest first as paper_trail lists them.
// Integrity: each version's digest is SHA-256 over the previous digest, a line feed and the version's
// sorted-key JSON without its digests; the answer's proof signs the head digest with HMAC-SHA256.
import { createHmac } from 'node:crypto';
import type { State } from './state.ts';
import { ApiError, type Ctx, canonical, ok, sha256 } from './util.ts';

export interface Version {
  id: number;
  position: number;
  event: string;
  itemType: string;
  itemId: string;
  whodunnit: string;
  requestId: string;
  objectChanges: Record<string, [unknown, unknown]>;
  createdAt: string;
  previousDigest: string;
  digest: string;
}

export interface AuditState {
  nextId: number;
  byTenant: Map<string, Version[]>;
}

const GENESIS = '0'.repeat(64);
const MAX_PAGE = 100;

export function newAudit(): AuditState {
  return { nextId: 1, byTenant: new Map() };
}

export function record(
  state: State,
  tenant: string,
  v: {
    event: string;
    itemType: string;
    itemId: string;
    whodunnit: string;
    requestId: string;
    objectChanges: Record<string, [unknown, unknown]>;
  },
): void {
  const list = state.audit.byTenant.get(tenant) ?? [];
  state.audit.byTenant.set(tenant, list);
  const previousDigest = list[list.length - 1]?.digest ?? GENESIS;
  const body = { id: state.audit.nextId++, position: list.length + 1, ...v, createdAt: state.iso() };
  list.push({ ...body, previousDigest, digest: sha256(`${previousDigest}\n${canonical(body)}`) });
}

function positiveInt(raw: string | null, name: string, fallback: number): number {
  if (raw === null) return fallback;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1)
    throw new ApiError('invalid_request', `${name} must be a positive integer`);
  return Number(raw);
}

/** GET /audit-log?limit=&page= (pagy style: page numbers, a Link rel="next" header, limit capped at 100). */
export function listAudit(state: State, ctx: Ctx, tenant: string): void {
  const limit = Math.min(MAX_PAGE, positiveInt(ctx.query.get('limit'), 'limit', 25));
  const page = positiveInt(ctx.query.get('page'), 'page', 1);
  const all = state.audit.byTenant.get(tenant) ?? [];
  const versions = all.slice((page - 1) * limit, page * limit);
  const totalPages = Math.max(1, Math.ceil(all.length / limit));
  const head = all[all.length - 1];
  const headDigest = head?.digest ?? GENESIS;
  const signed = `${tenant}:${all.length}:${headDigest}`;
  const proof = {
    type: 'sha256-chain',
    chain:
      'digest = SHA-256(previousDigest + "\\n" + sorted-key JSON of the version without previousDigest and digest)',
    genesis: GENESIS,
    length: all.length,
    headVersionId: head?.id ?? null,
    headDigest,
    signedText: signed,
    signatureAlgorithm: 'HMAC-SHA256',
    keyId: 'cypress-audit-2026-11',
    signature: createHmac('sha256', state.auditKey).update(signed).digest('hex'),
  };
  const links: string[] = [];
  const url = (p: number) => `${ctx.origin}${ctx.path}?limit=${limit}&page=${p}`;
  if (page < totalPages) links.push(`<${url(page + 1)}>; rel="next"`);
  if (page > 1) links.push(`<${url(page - 1)}>; rel="prev"`);
  const pagination = { page, limit, totalCount: all.length, totalPages };
  if (state.options.auditNextPageField) {
    const nextPage = page < totalPages ? page + 1 : null;
    ok(ctx, {
      tenant,
      order: 'oldest_first',
      versions,
      pagination,
      nextPage,
      prevPage: page > 1 ? page - 1 : null,
      proof,
    });
    return;
  }
  ok(
    ctx,
    { tenant, order: 'oldest_first', versions, pagination, proof },
    links.length > 0 ? { link: links.join(', ') } : {},
  );
}
