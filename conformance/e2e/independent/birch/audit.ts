// Audit log per tenant with a SHA-256 hash chain (each entry hashes the previous entry's hash and its
// own canonical content) and, per answered page, a Merkle root over the entry hashes of that page.
import { createHash } from 'node:crypto';
import { type Ctx, canonicalJson, invalid, sendOk } from './http-util.ts';

export type AuditEntry = {
  id: string;
  action: string;
  actor: string;
  resource_type: string;
  resource_id: string;
  request_id: string;
  created_at: string;
  prev_hash: string;
  entry_hash: string;
};

const GENESIS = '0'.repeat(64);
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export class AuditLog {
  byTenant = new Map<string, AuditEntry[]>();
  nextId = 1;

  record(
    tenant: string,
    e: { action: string; actor: string; resource_type: string; resource_id: string; request_id: string },
  ): void {
    const list = this.byTenant.get(tenant) ?? [];
    this.byTenant.set(tenant, list);
    const prev_hash = list.at(-1)?.entry_hash ?? GENESIS;
    const base = { id: String(this.nextId++), ...e, created_at: new Date().toISOString(), prev_hash };
    list.push({ ...base, entry_hash: sha256(prev_hash + canonicalJson(base)) });
  }

  // GET /audit-log?limit=&offset= in the shape of Django REST framework's LimitOffsetPagination:
  // oldest first (ordering = 'id'), count is the total, next/previous are absolute URLs or null.
  handle(ctx: Ctx, tenant: string): void {
    const limit = intParam(ctx, 'limit', 50, 1, 200);
    const offset = intParam(ctx, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const all = this.byTenant.get(tenant) ?? [];
    const page = all.slice(offset, offset + limit);
    const link = (o: number) => `${ctx.origin}${ctx.path}?limit=${limit}&offset=${o}`;
    sendOk(ctx, {
      tenant,
      count: all.length,
      next: offset + limit < all.length ? link(offset + limit) : null,
      previous: offset > 0 ? link(Math.max(0, offset - limit)) : null,
      results: page,
      integrity: {
        algorithm: 'sha256-hash-chain+merkle',
        genesis_hash: GENESIS,
        chain_head: all.at(-1)?.entry_hash ?? GENESIS,
        page_merkle_root: merkleRoot(page.map((p) => p.entry_hash)),
        how_to_verify:
          'entry_hash = sha256(prev_hash + canonical JSON of the entry without entry_hash, keys sorted); page_merkle_root = pairwise sha256 over entry_hash in the order listed, the last one duplicated when odd',
      },
    });
  }
}

function intParam(ctx: Ctx, name: string, dflt: number, min: number, max: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return dflt;
  if (!/^\d+$/.test(raw)) throw invalid(`${name} must be an integer.`, `${name}: integer from ${min} to ${max}`);
  const n = Number(raw);
  if (n < min || n > max) throw invalid(`${name} is out of range.`, `${name}: integer from ${min} to ${max}`);
  return n;
}

export function merkleRoot(hashes: string[]): string {
  if (hashes.length === 0) return sha256('');
  let level = hashes;
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(sha256((level[i] ?? '') + (level[i + 1] ?? level[i] ?? '')));
    level = next;
  }
  return level[0] ?? sha256('');
}
