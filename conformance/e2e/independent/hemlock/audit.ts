// Hash-chained audit log per tenant. Each entry's hash is SHA-256 over its prevHash, a newline and the
// canonical JSON of the entry without its hash; the first entry's prevHash is 64 zeros. A page reports the
// chain's head (latest hash) and headSignature = hex HMAC-SHA256 keyed with the reading access's client
// secret over "<tenant>.<headSeq>.<head>", so a partner can prove the head came from the service.
import { createHash, createHmac } from 'node:crypto';
import { invalid, isoUsec, newId } from './http-kit.ts';
import { canonical } from './idempotency.ts';
import type { AuditEntry, State } from './state.ts';

export const GENESIS = '0'.repeat(64);
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export function hashEntry(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256')
    .update(`${entry.prevHash}\n${canonical(entry)}`)
    .digest('hex');
}

export function appendAudit(
  state: State,
  tenant: string,
  e: { action: string; resourceType: string; resourceId: string; actor: string; idempotencyKey?: string },
): void {
  const chain = state.audit.get(tenant) ?? [];
  const prev = chain.at(-1);
  const base: Omit<AuditEntry, 'hash'> = {
    id: newId('au'),
    seq: (prev?.seq ?? 0) + 1,
    at: isoUsec(),
    action: e.action,
    resourceType: e.resourceType,
    resourceId: e.resourceId,
    actor: e.actor,
    prevHash: prev?.hash ?? GENESIS,
  };
  if (e.idempotencyKey !== undefined) base.idempotencyKey = e.idempotencyKey;
  chain.push({ ...base, hash: hashEntry(base) });
  state.audit.set(tenant, chain);
}

function intParam(url: URL, name: string, min: number, max: number): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  if (!/^\d{1,9}$/.test(v) || Number(v) < min || Number(v) > max)
    throw invalid(`${name} must be an integer from ${min} to ${max}.`);
  return Number(v);
}

/** GET /audit-log?limit=&before=: newest first; `before` is the seq to continue below (nextCursor). */
export function auditPage(state: State, tenant: string, clientSecret: string, url: URL): Record<string, unknown> {
  const limit = intParam(url, 'limit', 1, MAX_LIMIT) ?? DEFAULT_LIMIT;
  const before = intParam(url, 'before', 1, Number.MAX_SAFE_INTEGER);
  const chain = state.audit.get(tenant) ?? [];
  const newestFirst = chain.filter((e) => before === undefined || e.seq < before).reverse();
  const entries = newestFirst.slice(0, limit);
  const head = chain.at(-1)?.hash ?? GENESIS;
  const headSeq = chain.at(-1)?.seq ?? 0;
  const last = entries.at(-1);
  return {
    tenant,
    count: entries.length,
    entries,
    head,
    headSeq,
    headSignature: createHmac('sha256', clientSecret).update(`${tenant}.${headSeq}.${head}`).digest('hex'),
    proof: {
      algorithm: 'sha256',
      canonicalization: 'RFC8785',
      hashInput: 'prevHash + "\\n" + canonical(entry without hash)',
      genesis: GENESIS,
      headSignature: { algorithm: 'HMAC-SHA256', key: 'client secret', message: '<tenant>.<headSeq>.<head>' },
    },
    nextCursor: last && last.seq > 1 && newestFirst.length > entries.length ? String(last.seq) : null,
  };
}
