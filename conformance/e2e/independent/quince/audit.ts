// The tenant's audit log: a SHA-512 hash chain, newest first, paged with pageToken/nextPageToken.
import type { AuditEntry, State } from './state.ts';
import { ApiError, base36Id, canonical, isoNanos, sha512Hex } from './util.ts';

const GENESIS = '0'.repeat(128);
export const PROOF_FORMAT = 'quince-sha512-chain-v1';

/** hash = SHA-512 hex of previousHash + "\n" + canonical JSON (sorted keys) of the entry without `hash`. */
export function entryHash(e: Omit<AuditEntry, 'hash'>): string {
  return sha512Hex(`${e.previousHash}\n${canonical(e)}`);
}

export function record(
  state: State,
  tenant: string,
  principal: string,
  method: string,
  resource: string,
  requestId: string,
): void {
  const chain = state.audit.get(tenant) ?? [];
  const prev = chain[chain.length - 1];
  const base = {
    sequence: (prev?.sequence ?? 0) + 1,
    id: base36Id('a'),
    time: isoNanos(),
    tenant,
    principal,
    method,
    resource,
    requestId,
    previousHash: prev?.hash ?? GENESIS,
  };
  chain.push({ ...base, hash: entryHash(base) });
  state.audit.set(tenant, chain);
}

function token(before: number): string {
  return Buffer.from(JSON.stringify({ v: 1, before })).toString('base64url');
}

function untoken(t: string): number {
  try {
    const v = JSON.parse(Buffer.from(t, 'base64url').toString('utf8')) as { v?: number; before?: unknown };
    if (v.v === 1 && typeof v.before === 'number' && Number.isInteger(v.before) && v.before > 0) return v.before;
  } catch {
    // falls through to the refusal below
  }
  throw new ApiError('invalid_request', 'pageToken is not valid.', 'PAGE_TOKEN_INVALID');
}

export function auditPage(state: State, tenant: string, q: URLSearchParams): Record<string, unknown> {
  const rawLimit = q.get('limit') ?? q.get('pageSize');
  let limit = 20;
  if (rawLimit !== null) {
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 500) {
      throw new ApiError('invalid_request', 'limit must be an integer from 1 to 500.', 'LIMIT_OUT_OF_RANGE');
    }
    limit = Number(rawLimit);
  }
  const pt = q.get('pageToken');
  const chain = state.audit.get(tenant) ?? [];
  const before = pt ? untoken(pt) : Number.MAX_SAFE_INTEGER;
  const older = chain.filter((e) => e.sequence < before).reverse();
  const entries = older.slice(0, limit);
  const last = entries[entries.length - 1];
  const head = chain[chain.length - 1];
  return {
    tenant,
    entries,
    nextPageToken: older.length > limit && last ? token(last.sequence) : '',
    proof: {
      format: PROOF_FORMAT,
      algorithm: 'SHA-512',
      description:
        'hash = lowercase hex SHA-512 of (previousHash + "\\n" + JSON of the entry without "hash", keys sorted, no whitespace); the first previousHash is 128 zeros',
      genesisHash: GENESIS,
      headSequence: head?.sequence ?? 0,
      headHash: head?.hash ?? GENESIS,
    },
  };
}
