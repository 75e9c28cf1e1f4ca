// The audit log: one hash chain per tenant. Each entry's hash is SHA-256 (hex) over the previous
// entry's hash, a newline and the canonical JSON of the entry without its hash; the first entry
// links to 64 zeros. The answer's proof signs the chain head with an HMAC key of the service, so a
// reader can recompute the chain and check that nobody rewrote it.
import { createHmac, randomBytes } from 'node:crypto';
import { azureTime, canonicalJson, newId, sha256Hex } from './util.ts';

export interface AuditEntry {
  sequence: number;
  id: string;
  at: string;
  action: string;
  actor: string;
  target: { type: string; id: string };
  requestId: string;
  idempotencyKey?: string;
  previousHash: string;
  hash: string;
}

export const GENESIS = '0'.repeat(64);

export interface AuditLog {
  append(
    tenant: string,
    e: {
      action: string;
      actor: string;
      target: { type: string; id: string };
      requestId: string;
      idempotencyKey?: string;
    },
  ): void;
  /** Newest first: `limit` entries before sequence `from`; oldest first: `limit` entries after it. */
  page(tenant: string, limit: number, oldestFirst: boolean, from?: number): { entries: AuditEntry[]; hasMore: boolean };
  proof(tenant: string): Record<string, unknown>;
}

export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return sha256Hex(`${entry.previousHash}\n${canonicalJson(entry)}`);
}

export function createAuditLog(): AuditLog {
  const chains = new Map<string, AuditEntry[]>();
  const signingKey = randomBytes(32);
  const keyId = `spruce-audit-${newId().slice(0, 8)}`;
  const chainOf = (tenant: string): AuditEntry[] => {
    let c = chains.get(tenant);
    if (!c) {
      c = [];
      chains.set(tenant, c);
    }
    return c;
  };
  return {
    append(tenant, e) {
      const chain = chainOf(tenant);
      const previousHash = chain.at(-1)?.hash ?? GENESIS;
      const body: Omit<AuditEntry, 'hash'> = {
        sequence: chain.length + 1,
        id: newId(),
        at: azureTime(),
        ...e,
        previousHash,
      };
      chain.push({ ...body, hash: entryHash(body) });
    },
    page(tenant, limit, oldestFirst, from) {
      const chain = chainOf(tenant);
      if (oldestFirst) {
        const start = Math.min(chain.length, from ?? 0);
        return { entries: chain.slice(start, start + limit), hasMore: start + limit < chain.length };
      }
      const end = from === undefined ? chain.length : Math.max(0, Math.min(chain.length, from - 1));
      const start = Math.max(0, end - limit);
      return { entries: chain.slice(start, end).reverse(), hasMore: start > 0 };
    },
    proof(tenant) {
      const chain = chainOf(tenant);
      const head = chain.at(-1);
      const headSequence = head?.sequence ?? 0;
      const headHash = head?.hash ?? GENESIS;
      const signedAt = azureTime();
      const signature = createHmac('sha256', signingKey)
        .update(`${tenant}\n${headSequence}\n${headHash}\n${signedAt}`)
        .digest('hex');
      return {
        type: 'spruce-hash-chain/v1',
        hashAlgorithm: 'SHA-256',
        hashInput: 'previousHash + "\\n" + canonical JSON (sorted keys) of the entry without hash',
        genesisHash: GENESIS,
        headSequence,
        headHash,
        signedAt,
        signature: { algorithm: 'HMAC-SHA256', keyId, value: signature },
      };
    },
  };
}
