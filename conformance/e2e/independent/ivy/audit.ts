// The audit log: an append-only list per tenant, oldest first (a DynamoDB query in sort-key order), paged
// with an opaque base64 `nextToken`. Proof of integrity: every entry's `leafHash` (sha256 over the
// canonical JSON of the entry without it) and a Merkle root over all the tenant's leaves, in order:
// parent = sha256(left bytes || right bytes); an odd node at the end of a level is carried up unchanged.
import { createHash } from 'node:crypto';
import { ApiError } from './http-kit.ts';
import { canonical } from './idempotency.ts';
import { ulid } from './ids.ts';

interface Entry {
  id: string;
  seq: number;
  at: string;
  actor: string;
  action: string;
  target: { type: string; id: string };
  requestId: string;
  leafHash: string;
}

function sha256(data: string | Buffer): Buffer {
  return createHash('sha256').update(data).digest();
}

export function merkleRoot(leaves: string[]): string {
  if (leaves.length === 0) return sha256('').toString('hex');
  let level: Buffer[] = leaves.map((h) => Buffer.from(h, 'hex'));
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Buffer;
      const right = level[i + 1];
      next.push(right ? sha256(Buffer.concat([left, right])) : left);
    }
    level = next;
  }
  return (level[0] as Buffer).toString('hex');
}

export function createAudit() {
  const byTenant = new Map<string, Entry[]>();

  function record(
    tenant: string,
    actor: string,
    action: string,
    target: { type: string; id: string },
    requestId: string,
  ): void {
    const list = byTenant.get(tenant) ?? [];
    byTenant.set(tenant, list);
    const base = { id: ulid(), seq: list.length + 1, at: new Date().toISOString(), actor, action, target, requestId };
    list.push({ ...base, leafHash: sha256(canonical(base)).toString('hex') });
  }

  /** GET /audit-log?limit=&nextToken= */
  function read(tenant: string, query: URLSearchParams) {
    const rawLimit = query.get('limit');
    let limit = 25;
    if (rawLimit !== null) {
      if (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1 || Number(rawLimit) > 100) {
        throw new ApiError(
          'invalid_request',
          'The query parameter limit is invalid.',
          'limit: an integer from 1 to 100',
        );
      }
      limit = Number(rawLimit);
    }
    let after = 0;
    const token = query.get('nextToken');
    if (token !== null) {
      try {
        const parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { t?: unknown; s?: unknown };
        if (parsed.t !== tenant || typeof parsed.s !== 'number') throw new Error('foreign token');
        after = parsed.s;
      } catch {
        throw new ApiError(
          'invalid_request',
          'The query parameter nextToken is invalid.',
          'nextToken: a value of an earlier page',
        );
      }
    }
    const all = byTenant.get(tenant) ?? [];
    const entries = all.filter((e) => e.seq > after).slice(0, limit);
    const last = entries.at(-1);
    const more = last !== undefined && last.seq < all.length;
    const data: Record<string, unknown> = {
      tenant,
      count: entries.length,
      entries,
      integrity: { merkleRoot: merkleRoot(all.map((e) => e.leafHash)), leafCount: all.length, algorithm: 'sha256' },
    };
    if (more && last) data.nextToken = Buffer.from(JSON.stringify({ t: tenant, s: last.seq })).toString('base64');
    return data;
  }

  return { record, read };
}

export type Audit = ReturnType<typeof createAudit>;
