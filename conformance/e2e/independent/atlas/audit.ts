// Audit trail per tenant with our own integrity proof: a SHA-512 chain over pipe-joined fields.
import { createHash } from 'node:crypto';
import { ApiError, isoTime } from './http-util.ts';

export type AuditEntry = {
  sequence: number;
  occurredAt: string;
  actor: { type: 'CLIENT'; id: string };
  action: string;
  resource: { type: string; id: string };
  outcome: 'SUCCESS';
  requestId: string;
  digest: string;
};
const GENESIS = '0'.repeat(128);
export const AUDIT_PROOF_SCHEME = 'ATLAS-CHAIN-SHA512/1';

function digestOf(prev: string, e: Omit<AuditEntry, 'digest'>): string {
  const line = [e.sequence, e.occurredAt, e.actor.id, e.action, e.resource.type, e.resource.id, e.requestId].join('|');
  return createHash('sha512').update(`${prev}\n${line}`).digest('hex');
}

export type AuditLog = {
  record(tenant: string, clientId: string, action: string, type: string, id: string, requestId: string): void;
  page(tenant: string, limit: number, pageToken: string | null): Record<string, unknown>;
};

export function createAuditLog(): AuditLog {
  const chains = new Map<string, AuditEntry[]>();
  return {
    record(tenant, clientId, action, type, id, requestId) {
      const chain = chains.get(tenant) ?? [];
      chains.set(tenant, chain);
      const prev = chain.at(-1)?.digest ?? GENESIS;
      const e = {
        sequence: chain.length + 1,
        occurredAt: isoTime(),
        actor: { type: 'CLIENT' as const, id: clientId },
        action,
        resource: { type, id },
        outcome: 'SUCCESS' as const,
        requestId,
      };
      chain.push({ ...e, digest: digestOf(prev, e) });
    },
    page(tenant, limit, pageToken) {
      const chain = chains.get(tenant) ?? [];
      // Newest first; the page token is the sequence to continue below (Google AIP-158 style).
      let below = chain.length + 1;
      if (pageToken !== null) {
        const n = Number(Buffer.from(pageToken, 'base64url').toString('utf8').replace(/^seq:/, ''));
        if (!Number.isInteger(n) || n < 1 || n > chain.length + 1)
          throw new ApiError('invalid_request', 'pageToken is not valid');
        below = n;
      }
      const items = chain
        .filter((e) => e.sequence < below)
        .reverse()
        .slice(0, limit);
      const oldest = items.at(-1);
      const next =
        oldest !== undefined && oldest.sequence > 1
          ? Buffer.from(`seq:${oldest.sequence}`).toString('base64url')
          : undefined;
      const anchor = oldest === undefined ? GENESIS : (chain[oldest.sequence - 2]?.digest ?? GENESIS);
      return {
        tenant,
        items,
        pageSize: limit,
        ...(next === undefined ? {} : { nextPageToken: next }),
        integrity: {
          scheme: AUDIT_PROOF_SCHEME,
          anchorDigest: anchor,
          headDigest: chain.at(-1)?.digest ?? GENESIS,
          rule: 'digest(n) = hex(SHA-512(digest(n-1) + "\\n" + sequence|occurredAt|actor.id|action|resource.type|resource.id|requestId)); digest(0) = 128 zeros',
        },
      };
    },
  };
}
