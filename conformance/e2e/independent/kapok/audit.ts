// The audit log: one hash chain per tenant, entries {seq, at, action, subject, digest, prev} with
// digest = sha256 hex of `prev|seq|action|subject|at`; the answer's proof signs the chain's head (the
// newest digest) with Ed25519. Paged newest first by an opaque base64url cursor.
import { createHash, sign } from 'node:crypto';
import { bad } from './http-util.ts';
import type { Ctx } from './router.ts';
import type { AuditEntry, State } from './state.ts';

const GENESIS = '0'.repeat(64);

export function record(s: State, tenant: string, action: string, subject: string): void {
  const chain = s.audit.get(tenant) ?? [];
  s.audit.set(tenant, chain);
  const last = chain[chain.length - 1];
  const prev = last ? last.digest : GENESIS;
  const seq = chain.length + 1;
  const at = new Date().toISOString();
  const digest = createHash('sha256').update(`${prev}|${seq}|${action}|${subject}|${at}`).digest('hex');
  chain.push({ seq, at, action, subject, digest, prev });
}

const encodeCursor = (seq: number) => Buffer.from(`s:${seq}`).toString('base64url');

function decodeCursor(raw: string): number {
  const m = /^s:(\d{1,12})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  if (!m?.[1] || Buffer.from(`s:${m[1]}`).toString('base64url') !== raw)
    throw bad('cursor is not a cursor this log issued');
  return Number(m[1]);
}

export function pageLimit(ctx: Ctx, fallback: number, max: number): number {
  const raw = ctx.url.searchParams.get('limit');
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max)
    throw bad(`limit must be an integer from 1 to ${max}`);
  return Number(raw);
}

export function auditLog(ctx: Ctx) {
  const limit = pageLimit(ctx, ctx.s.opts.auditPageSize, 500);
  const cursor = ctx.url.searchParams.get('cursor');
  const chain = ctx.s.audit.get(ctx.caller.tenant) ?? [];
  const after = cursor === null ? null : decodeCursor(cursor);
  const oldestFirst = ctx.s.opts.auditOldestFirst;
  let ordered: AuditEntry[];
  if (oldestFirst) ordered = chain.filter((e) => after === null || e.seq > after);
  else ordered = chain.filter((e) => after === null || e.seq < after).reverse();
  const entries = ordered.slice(0, limit);
  const last = entries[entries.length - 1];
  const next = ordered.length > limit && last ? encodeCursor(last.seq) : null;
  const head = chain.length ? (chain[chain.length - 1] as AuditEntry).digest : GENESIS;
  const signature = sign(null, Buffer.from(head), ctx.s.auditKey.privateKey).toString('base64url');
  return {
    tenant: ctx.caller.tenant,
    order: oldestFirst ? 'oldest_first' : 'newest_first',
    count: entries.length,
    entries,
    next_cursor: next,
    proof: {
      algorithm: 'sha256-chain',
      digestInput: 'prev|seq|action|subject|at',
      head,
      headSeq: chain.length,
      signature,
      signatureAlgorithm: 'Ed25519',
      publicKeyJwk: ctx.s.auditKey.publicKey.export({ format: 'jwk' }),
    },
  };
}
