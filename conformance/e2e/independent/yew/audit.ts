// The audit log: one hash chain per tenant. Each entry's hash is SHA-256 (base64, as .NET's
// Convert.ToBase64String writes it) over "previousHash|sequence|occurredAt|action|resourceId|actor"; the
// proof is the chain head, signed with the service's HMAC key (a signed tree head, key id included).
// Newest first, OData-style paging: limit (1..100, default 20) and an opaque $skiptoken in @odata.nextLink.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { isoNow, newGuid } from './http-util.ts';

export interface AuditEntry {
  sequence: number;
  id: string;
  occurredAt: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  idempotencyKey?: string;
  previousHash: string;
  hash: string;
}

const GENESIS = Buffer.alloc(32).toString('base64');

export function entryHash(e: Omit<AuditEntry, 'hash'>): string {
  const input = `${e.previousHash}|${e.sequence}|${e.occurredAt}|${e.action}|${e.resourceId}|${e.actor}`;
  return createHash('sha256').update(input, 'utf8').digest('base64');
}

export function createAuditLog(oldestFirst = false) {
  const chains = new Map<string, AuditEntry[]>();
  const signingKey = randomBytes(32);
  const keyId = `yew-audit-${randomBytes(4).toString('hex')}`;

  function record(
    tenant: string,
    e: { actor: string; action: string; resourceType: string; resourceId: string; idempotencyKey?: string },
  ) {
    const chain = chains.get(tenant) ?? [];
    chains.set(tenant, chain);
    const base = {
      sequence: chain.length + 1,
      id: newGuid(),
      occurredAt: isoNow(),
      ...e,
      previousHash: chain.at(-1)?.hash ?? GENESIS,
    };
    chain.push({ ...base, hash: entryHash(base) });
  }

  /** One page (newest first, or oldest first), after the sequence `from` when given. */
  function page(tenant: string, limit: number, from: number | undefined) {
    const chain = chains.get(tenant) ?? [];
    const ordered = oldestFirst
      ? chain.filter((e) => from === undefined || e.sequence > from)
      : [...chain].reverse().filter((e) => from === undefined || e.sequence < from);
    const entries = ordered.slice(0, limit);
    const more = ordered.length > limit;
    const last = entries.at(-1);
    const head = chain.at(-1);
    const headSequence = head?.sequence ?? 0;
    const headHash = head?.hash ?? GENESIS;
    const signedAt = isoNow();
    const signature = createHmac('sha256', signingKey)
      .update(`${tenant}|${headSequence}|${headHash}|${signedAt}`)
      .digest('base64');
    return {
      entries,
      nextBefore: more && last ? last.sequence : undefined,
      total: chain.length,
      proof: {
        type: 'hashChain',
        algorithm: 'SHA256',
        encoding: 'base64',
        entryHashInput: 'previousHash|sequence|occurredAt|action|resourceId|actor',
        genesisHash: GENESIS,
        headSequence,
        headHash,
        signedAt,
        signatureAlgorithm: 'HMACSHA256',
        signatureInput: 'tenant|headSequence|headHash|signedAt',
        keyId,
        signature,
      },
    };
  }

  return { record, page, order: oldestFirst ? 'oldestFirst' : 'newestFirst' };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
