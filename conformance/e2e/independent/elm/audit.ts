// Audit log: a hash chain per tenant (sha256 over the previous hash and the canonical entry), newest
// first; the proof is an HMAC over the chain head under a published key id.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Ctx } from './http.ts';
import { allowQuery, HttpError, sendOk } from './http.ts';
import { fingerprint } from './idempotency.ts';

export const AUDIT_KEY_ID = 'elm-audit-2026-07';
const GENESIS = '0'.repeat(64);

export type AuditEntry = {
  sequence: number;
  id: string;
  at: string;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  previousHash: string;
  hash: string;
};

export type Audit = { key: Buffer; chains: Map<string, AuditEntry[]>; maxLimit: number };

export function createAudit(maxLimit = 100): Audit {
  return { key: randomBytes(32), chains: new Map(), maxLimit };
}

export function record(
  audit: Audit,
  tenant: string,
  actor: string,
  action: string,
  resourceType: string,
  resourceId: string,
): void {
  let chain = audit.chains.get(tenant);
  if (!chain) {
    chain = [];
    audit.chains.set(tenant, chain);
  }
  const last = chain[chain.length - 1];
  const previousHash = last ? last.hash : GENESIS;
  const body = {
    sequence: chain.length + 1,
    id: `aud_${randomBytes(8).toString('hex')}`,
    at: new Date().toISOString(),
    action,
    resourceType,
    resourceId,
    actor,
  };
  // The hash covers the previous hash and the canonical entry without its own hash fields.
  const hash = createHash('sha256').update(previousHash).update(fingerprint(body)).digest('hex');
  chain.push({ ...body, previousHash, hash });
}

export function auditLog(ctx: Ctx, audit: Audit): void {
  allowQuery(ctx, ['limit', 'cursor']);
  const limitText = ctx.query.get('limit') ?? String(Math.min(50, audit.maxLimit));
  if (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > audit.maxLimit) {
    throw new HttpError(
      'invalid_request',
      `The query parameter 'limit' must be an integer from 1 to ${audit.maxLimit}.`,
    );
  }
  const limit = Number(limitText);
  const chain = audit.chains.get(ctx.tenant ?? '') ?? [];
  const cursorText = ctx.query.get('cursor');
  // The cursor is the sequence of the last entry read; the next page starts below it.
  let before = chain.length + 1;
  if (cursorText !== null) {
    if (!/^\d{1,9}$/.test(cursorText))
      throw new HttpError('invalid_request', "The query parameter 'cursor' is invalid.");
    before = Number(cursorText);
  }
  const newestFirst = chain.filter((e) => e.sequence < before).reverse();
  const page = newestFirst.slice(0, limit);
  const last = page[page.length - 1];
  const head = chain[chain.length - 1];
  const headHash = head ? head.hash : GENESIS;
  sendOk(ctx, {
    tenant: ctx.tenant,
    order: 'newest-first',
    count: page.length,
    entries: page,
    nextCursor: newestFirst.length > limit && last ? String(last.sequence) : null,
    proof: {
      algorithm: 'HMAC-SHA256',
      keyId: AUDIT_KEY_ID,
      chainLength: chain.length,
      head: headHash,
      signature: createHmac('sha256', audit.key).update(`${chain.length}.${headHash}`).digest('hex'),
    },
  });
}
