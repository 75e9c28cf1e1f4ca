// The audit log with a proof of integrity as a CryptoKit user writes it: each entry's SHA256 digest of its
// JSONEncoder(.sortedKeys) encoding, and a Curve25519 (Ed25519) signature over the Merkle root of every
// digest (default) or over the head of a hash chain (`auditProof: 'chain'`). Newest first, Fluent's paging.
import { createHash, sign } from 'node:crypto';
import { Abort, type Ctx, isoDate, ok, type Rec, uuid } from './http.ts';
import type { AuditEntry, Store } from './state.ts';

const sha256 = (data: Buffer | string): Buffer => createHash('sha256').update(data).digest();

/** JSONEncoder with `.sortedKeys` and the default `\/` escape of slashes (no `.withoutEscapingSlashes`). */
export function swiftSortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(swiftSortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const rec = value as Rec;
    const keys = Object.keys(rec)
      .filter((k) => rec[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${swiftSortedJson(rec[k])}`).join(',')}}`;
  }
  return JSON.stringify(value).replaceAll('/', '\\/');
}

export function record(
  store: Store,
  ctx: Ctx,
  action: string,
  resourceType: string,
  resourceId: string,
  changes: Rec = {},
): void {
  const tenant = ctx.tenant ?? '';
  const list = store.tenantList(store.audit, tenant);
  const prev = list.at(-1);
  const entry: AuditEntry = {
    id: uuid(),
    sequence: list.length + 1,
    action,
    resourceType,
    resourceId,
    actor: ctx.clientId ?? 'unknown',
    requestId: ctx.requestId,
    // What changed, as the model's fields; a URL here is hashed with JSONEncoder's escaped slashes.
    changes,
    createdAt: isoDate(),
  };
  if (store.options.auditProof === 'chain') {
    entry.previousDigest = prev?.digest ?? null;
    entry.digest = sha256(`${prev?.digest ?? ''}${swiftSortedJson(entry)}`).toString('hex');
  } else {
    entry.digest = sha256(swiftSortedJson(entry)).toString('hex');
  }
  list.push(entry);
}

/** The Merkle root of the leaf digests: pairs hashed as SHA256(left || right), an odd last node carried up. */
export function merkleRoot(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256('');
  let level = leaves;
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Buffer;
      const right = level[i + 1];
      next.push(right ? sha256(Buffer.concat([left, right])) : left);
    }
    level = next;
  }
  return level[0] as Buffer;
}

function proof(store: Store, entries: AuditEntry[]): Rec {
  const publicKey = store.signingKey.publicKey.export({ format: 'jwk' }).x ?? '';
  const raw = Buffer.from(publicKey, 'base64url').toString('base64');
  const digests = entries.map((e) => Buffer.from(String(e.digest), 'hex'));
  const head = store.options.auditProof === 'chain' ? (digests.at(-1) ?? sha256('')) : merkleRoot(digests);
  // CryptoKit signs the root's raw 32 bytes: `privateKey.signature(for: Data(root))`.
  const signature = sign(null, head, store.signingKey.privateKey).toString('base64');
  const base = { treeSize: entries.length, signature, publicKey: raw, signatureAlgorithm: 'Curve25519.Signing' };
  return store.options.auditProof === 'chain'
    ? { type: 'sha256-hash-chain', headDigest: head.toString('hex'), ...base }
    : { type: 'sha256-merkle-tree', rootHash: head.toString('hex'), ...base };
}

/** GET /audit-log?limit=&page=: Fluent's `Page` (items + metadata), `limit` read as `per`. */
export function auditLog(ctx: Ctx, store: Store): void {
  const limitText = ctx.query.get('limit') ?? ctx.query.get('per');
  const pageText = ctx.query.get('page') ?? '1';
  const per = limitText === null ? store.options.auditPerPage : Number(limitText);
  const page = Number(pageText);
  if (!Number.isInteger(per) || per < 1 || per > 100) throw new Abort(400, 'limit must be an integer from 1 to 100.');
  if (!Number.isInteger(page) || page < 1) throw new Abort(400, 'page must be an integer from 1.');
  const all = store.tenantList(store.audit, ctx.tenant ?? '');
  const newestFirst = [...all].reverse();
  const items = newestFirst.slice((page - 1) * per, page * per);
  const metadata = { page, per, total: all.length, pageCount: Math.ceil(all.length / per) };
  ok(ctx, { tenant: ctx.tenant, items, metadata, proof: proof(store, all) });
}
