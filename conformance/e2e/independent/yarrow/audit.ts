// The audit log: one hash chain per tenant. yarrow's proof: each entry's digest is SHA-384 over the previous
// digest and the entry's fields in a fixed order, joined by "\n" (no JSON canonicalisation needed to verify);
// the answer shows the head digest and the chain length, so a client can recompute and compare.
import { createHash, randomUUID } from 'node:crypto';
import { API } from './catalog.ts';

export interface AuditEntry {
  '@id': string;
  id: string;
  sequence: number;
  occurredAt: string;
  actor: string;
  action: string;
  resource: string;
  idempotencyKey: string | null;
  previousDigest: string;
  digest: string;
}

export const GENESIS = '0'.repeat(96);
export const DIGEST_FIELDS = ['sequence', 'occurredAt', 'actor', 'action', 'resource', 'idempotencyKey'] as const;

export function digestOf(previous: string, e: Omit<AuditEntry, 'digest' | 'previousDigest' | '@id' | 'id'>): string {
  const lines = [previous, ...DIGEST_FIELDS.map((f) => String(e[f] ?? ''))];
  return createHash('sha384').update(lines.join('\n')).digest('hex');
}

export function createAudit() {
  const chains = new Map<string, AuditEntry[]>();
  return {
    record(tenant: string, actor: string, action: string, resource: string, idempotencyKey?: string): void {
      const chain = chains.get(tenant) ?? [];
      chains.set(tenant, chain);
      const previousDigest = chain.at(-1)?.digest ?? GENESIS;
      const id = randomUUID();
      const base = {
        sequence: chain.length + 1,
        occurredAt: new Date().toISOString(),
        actor,
        action,
        resource,
        idempotencyKey: idempotencyKey ?? null,
      };
      chain.push({
        '@id': `${API}/audit-log/${id}`,
        id,
        ...base,
        previousDigest,
        digest: digestOf(previousDigest, base),
      });
    },
    entries(tenant: string): AuditEntry[] {
      return chains.get(tenant) ?? [];
    },
  };
}
export type Audit = ReturnType<typeof createAudit>;
