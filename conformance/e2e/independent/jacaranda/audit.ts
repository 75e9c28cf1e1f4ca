// The audit log: per tenant, oldest first, paged AIP-158 style (page_token / next_page_token, page_size or
// limit, at most 100). Its proof is an RFC 6962 Merkle tree: each entry carries its leaf_hash and the answer a
// signed tree head (ECDSA P-256 over the root hash bytes).
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { type Ctx, canonical, pageToken, paging } from './http.ts';
import { type Choices, nowIso, snowflake } from './state.ts';

export interface AuditEntry {
  sequence: string;
  id: string;
  action: string;
  resource_type: string;
  resource_id: string;
  actor: string;
  time: string;
  details: Record<string, string>;
  leaf_hash: string;
}

export interface AuditLog {
  choices: Choices;
  byTenant: Map<string, AuditEntry[]>;
  privateKey: KeyObject;
  publicPem: string;
}

export function newAuditLog(choices: Choices): AuditLog {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    choices,
    byTenant: new Map(),
    privateKey,
    publicPem: String(publicKey.export({ type: 'spki', format: 'pem' })),
  };
}

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

export function record(
  log: AuditLog,
  tenant: string,
  e: { action: string; resource_type: string; resource_id: string; actor: string; details: Record<string, string> },
): void {
  const list = log.byTenant.get(tenant) ?? [];
  log.byTenant.set(tenant, list);
  const body = { sequence: String(list.length + 1), id: snowflake(), time: nowIso(), ...e };
  const leaf = sha256(Buffer.from([0]), Buffer.from(canonical(body), 'utf8'));
  list.push({ ...body, leaf_hash: leaf.toString('base64') });
}

/** RFC 9162 inclusion path of leaf m in the tree of `leaves` (audit path, bottom up). */
function inclusionPath(m: number, leaves: Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return m < k
    ? [...inclusionPath(m, leaves.slice(0, k)), treeHash(leaves.slice(k))]
    : [...inclusionPath(m - k, leaves.slice(k)), treeHash(leaves.slice(0, k))];
}

/** RFC 6962 Merkle Tree Hash over the leaf hashes. */
function treeHash(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0] as Buffer;
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256(Buffer.from([1]), treeHash(leaves.slice(0, k)), treeHash(leaves.slice(k)));
}

/** GET /audit-log */
export function auditPage(log: AuditLog, ctx: Ctx) {
  const all = log.byTenant.get(ctx.tenant ?? '') ?? [];
  const { start, size } = paging(ctx.query, 50);
  const leaves = all.map((e) => Buffer.from(e.leaf_hash, 'base64'));
  const entries = log.choices.auditProofs
    ? all.slice(start, start + size).map((e, i) => ({
        ...e,
        inclusion_proof: {
          leaf_index: String(start + i),
          tree_size: String(all.length),
          hashes: inclusionPath(start + i, leaves).map((h) => h.toString('base64')),
        },
      }))
    : all.slice(start, start + size);
  const next = start + size < all.length ? pageToken(start + size) : '';
  const root = treeHash(leaves);
  const dsaEncoding = log.choices.sigP1363 ? 'ieee-p1363' : 'der';
  return {
    entries,
    ...(next || !log.choices.omitEmpty ? { next_page_token: next } : {}),
    total_size: all.length,
    signed_tree_head: {
      tree_size: String(all.length),
      root_hash: root.toString('base64'),
      timestamp: nowIso(),
      signature: sign('sha256', root, { key: log.privateKey, dsaEncoding }).toString('base64'),
      public_key: log.publicPem,
    },
  };
}
