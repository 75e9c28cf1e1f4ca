// The audit log: one hash chain per tenant. hash = SHA-256 (hex) over the canonical JSON of the entry
// without its own `hash` (previousHash included); the first entry links to 64 zeros. Newest first,
// paged backwards with before=<seq>; the page's proof names the head of the whole chain.
import { createHash } from 'node:crypto';
import type { Ctx } from './http-kit.ts';
import { API, ApiError, canonicalJson } from './http-kit.ts';
import { instant, uuidv7 } from './ids.ts';
import { springPage } from './spring-page.ts';
import type { AuditEntry, State } from './store.ts';

const GENESIS = '0'.repeat(64);

export function entryHash(entry: Record<string, unknown>): string {
  const { hash: _hash, ...rest } = entry;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

export type AuditInput = {
  action: string;
  actor: string;
  target: { type: string; id: string };
  requestId: string | null;
  details: Record<string, unknown>;
};

export function appendAudit(state: State, tenant: string, input: AuditInput): void {
  let chain = state.audit.get(tenant);
  if (!chain) {
    chain = [];
    state.audit.set(tenant, chain);
  }
  const previous = chain[chain.length - 1];
  const body: Record<string, unknown> = {
    seq: chain.length + 1,
    id: uuidv7(),
    at: instant(),
    tenant,
    ...input,
    previousHash: previous ? previous.hash : GENESIS,
  };
  const entry = { ...body, hash: entryHash(body) } as AuditEntry;
  chain.push(entry);
}

function intParam(ctx: Ctx, name: string, min: number, max: number): number | undefined {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ApiError('invalid_request', `Query parameter ${name} is invalid.`, {
      detail: `${name}: a whole number from ${min} to ${max}`,
    });
  }
  return Number(raw);
}

/** GET /audit-log?limit=&before= */
export function auditPage(state: State, ctx: Ctx, tenant: string): { data: unknown; link?: string } {
  const limit = intParam(ctx, 'limit', 1, 200) ?? 50;
  const chain = state.audit.get(tenant) ?? [];
  const before = intParam(ctx, 'before', 1, Number.MAX_SAFE_INTEGER) ?? chain.length + 1;
  const upTo = Math.min(before - 1, chain.length);
  const from = Math.max(0, upTo - limit);
  const entries = chain.slice(from, upTo).reverse();
  const head = chain[chain.length - 1];
  const next = from > 0 ? `${API}/audit-log?limit=${limit}&before=${from + 1}` : null;
  const proof = state.options.auditJcs
    ? {
        algorithm: state.options.auditJcs,
        canonicalization: 'RFC8785',
        headHash: head ? head.hash : GENESIS,
        count: chain.length,
      }
    : { algorithm: 'SHA-256', headHash: head ? head.hash : GENESIS, count: chain.length };
  const data = state.options.springPages
    ? { tenant, ...springPage(entries, limit, chain.length, Math.floor((chain.length - upTo) / limit)), next, proof }
    : { tenant, count: entries.length, entries, next, proof };
  return { data, link: next ?? undefined };
}
