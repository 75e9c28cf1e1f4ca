// Audit log of a tenant: newest first, paged with an opaque `cursor`, each entry chained by SHA-256
// (hash = sha256(prevHash + canonical JSON of {seq,id,at,action,target,actor})), the head in `proof`.
import { createHash } from 'node:crypto';
import type { Ctx } from './handlers.ts';
import { ApiError } from './http-kit.ts';

function decodeCursor(raw: string, tenant: string): number {
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { t?: unknown; s?: unknown };
    if (v.t === tenant && typeof v.s === 'number' && Number.isInteger(v.s) && v.s >= 1) return v.s;
  } catch {
    // fall through: any undecodable cursor is the caller's mistake
  }
  throw new ApiError('invalid_request', 'cursor is not one this log issued');
}

export function auditLog(c: Ctx) {
  const all = c.state.audit.get(c.tenant) ?? [];
  const rawLimit = c.url.searchParams.get('limit');
  let limit = 50;
  if (rawLimit !== null) {
    if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 200) {
      throw new ApiError('invalid_request', 'limit must be an integer from 1 to 200');
    }
    limit = Number(rawLimit);
  }
  const rawCursor = c.url.searchParams.get('cursor');
  // newest first: the cursor names the seq below which the next page starts
  const below = rawCursor === null ? all.length + 1 : decodeCursor(rawCursor, c.tenant);
  const entries = all
    .filter((e) => e.seq < below)
    .reverse()
    .slice(0, limit);
  const last = entries.at(-1);
  const nextCursor =
    last && last.seq > 1 ? Buffer.from(JSON.stringify({ t: c.tenant, s: last.seq })).toString('base64url') : null;
  const head = all.at(-1);
  return {
    tenant: c.tenant,
    count: entries.length,
    entries,
    nextCursor,
    proof: {
      scheme: 'gorse-sha256-chain/1',
      genesis: createHash('sha256').update(`gorse-genesis:${c.tenant}`).digest('hex'),
      headSeq: head?.seq ?? 0,
      headHash: head?.hash ?? null,
      rule: 'hash = sha256_hex(prevHash + canonical_json({seq,id,at,action,target,actor})), keys sorted',
    },
  };
}
