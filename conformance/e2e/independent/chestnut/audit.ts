// The audit log: one hash chain per tenant, oldest first, paged with continue tokens. Each entry's digest is
// SHA-256 (lowercase hex) over the parent's digest, a newline, and the canonical JSON (keys sorted, no
// spaces) of the entry without its two digest fields; the first entry's parent is 64 zeros. The answer's
// proof names the head, so a client holding an older head can check that the log only grew.
import { createHash } from 'node:crypto';
import { ApiError, canonical } from './http-kit.ts';
import { decodeContinue, encodeContinue, rfc3339, uuidv7 } from './ids.ts';

const GENESIS = '0'.repeat(64);

export interface AuditEntry {
  id: string;
  sequence: number;
  action: string;
  resource: { kind: string; id: string };
  actor: string;
  requestId: string;
  at: string;
  parentDigest: string;
  digest: string;
}

export function entryDigest(parent: string, body: Omit<AuditEntry, 'parentDigest' | 'digest'>): string {
  return createHash('sha256')
    .update(`${parent}\n${canonical(body)}`)
    .digest('hex');
}

export class AuditLog {
  private readonly chains = new Map<string, AuditEntry[]>();
  /** Name the canonical form in the proof (RFC 8785: the sorted-key JSON used here is exactly that for these values). */
  private readonly declareCanonicalization: boolean;

  constructor(declareCanonicalization = false) {
    this.declareCanonicalization = declareCanonicalization;
  }

  record(tenant: string, action: string, kind: string, resourceId: string, actor: string, requestId: string): void {
    const chain = this.chains.get(tenant) ?? [];
    const parent = chain.at(-1)?.digest ?? GENESIS;
    const body = {
      id: uuidv7(),
      sequence: chain.length + 1,
      action,
      resource: { kind, id: resourceId },
      actor,
      requestId,
      at: rfc3339(),
    };
    chain.push({ ...body, parentDigest: parent, digest: entryDigest(parent, body) });
    this.chains.set(tenant, chain);
  }

  /** A page: limit 1..500 (default 50), `continue` from the previous page. */
  /** A page: limit 1..maxLimit (default 50, or maxLimit when smaller), `continue` from the previous page; newestFirst reverses the walk. */
  page(
    tenant: string,
    query: URLSearchParams,
    maxLimit = 500,
    newestFirst = false,
  ): { data: Record<string, unknown>; next?: string } {
    const rawLimit = query.get('limit');
    const limit = rawLimit === null ? Math.min(50, maxLimit) : Number(rawLimit);
    if (rawLimit !== null && (!/^\d+$/.test(rawLimit) || limit < 1 || limit > maxLimit)) {
      throw new ApiError('invalid_request', 'invalid limit', `limit must be an integer from 1 to ${maxLimit}`);
    }
    const token = query.get('continue');
    const offset = token === null ? 0 : decodeContinue(token);
    if (offset === undefined)
      throw new ApiError('invalid_request', 'invalid continue token', 'use the token of the previous page as given');
    const stored = this.chains.get(tenant) ?? [];
    const chain = newestFirst ? [...stored].reverse() : stored;
    const entries = chain.slice(offset, offset + limit);
    const end = offset + entries.length;
    const head = stored.at(-1)?.digest ?? GENESIS;
    const next = end < chain.length ? encodeContinue(end, String(chain.length)) : undefined;
    return {
      next,
      data: {
        kind: 'AuditEntryList',
        tenant,
        count: entries.length,
        items: entries,
        proof: {
          scheme: 'chestnut.hashchain/v1',
          algorithm: 'sha256',
          ...(this.declareCanonicalization ? { canonicalization: 'RFC8785' } : {}),
          construction:
            "digest = hex(sha256(parentDigest + '\\n' + canonicalJson(entry without parentDigest and digest)))",
          genesis: GENESIS,
          head,
          length: chain.length,
        },
        metadata: { continue: next ?? '', remainingItemCount: chain.length - end },
      },
    };
  }
}
