// Audit log with a proof of integrity: per tenant an append-only RFC 6962 Merkle tree (leaf = SHA-256 of
// 0x00 + canonical entry, node = SHA-256 of 0x01 + left + right). Each answer carries the tree head signed
// with Ed25519 (a signed checkpoint, public key included) and, per entry, its inclusion proof (audit path).
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { bad, pgTime } from './http-kit.ts';

export interface AuditEntry {
  id: string;
  index: number;
  at: string;
  action: string;
  actor: string;
  resourceType: string;
  resourceId: string;
  requestId: string;
  idempotencyKey: string | null;
  leafHash: string;
}

const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const split = (n: number) => 2 ** Math.floor(Math.log2(n - 1));

function root(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return leaves[0] ?? sha();
  const k = split(leaves.length);
  return sha(Buffer.from([1]), root(leaves.slice(0, k)), root(leaves.slice(k)));
}

/** RFC 6962 audit path of leaf m in the tree of the given leaves. */
function path(m: number, leaves: Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = split(leaves.length);
  return m < k
    ? [...path(m, leaves.slice(0, k)), root(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), root(leaves.slice(0, k))];
}

export class AuditLog {
  private logs = new Map<string, { entries: AuditEntry[]; leaves: Buffer[] }>();
  private keys = generateKeyPairSync('ed25519');
  private publicKey = this.keys.publicKey.export({ format: 'der', type: 'spki' }).toString('base64');

  append(tenant: string, e: Omit<AuditEntry, 'id' | 'index' | 'at' | 'leafHash'>): void {
    const log = this.logs.get(tenant) ?? { entries: [], leaves: [] };
    this.logs.set(tenant, log);
    const base = { id: randomUUID(), index: log.entries.length, at: pgTime(), ...e };
    const leaf = sha(Buffer.from([0]), Buffer.from(JSON.stringify(base, Object.keys(base).sort())));
    log.entries.push({ ...base, leafHash: leaf.toString('hex') });
    log.leaves.push(leaf);
  }

  /** GET /audit-log?limit=&before=: newest first, each entry with its inclusion proof, one signed head. */
  page(tenant: string, params: URLSearchParams) {
    const limit = intParam(params, 'limit', 1, 200) ?? 50;
    const log = this.logs.get(tenant) ?? { entries: [], leaves: [] };
    const size = log.leaves.length;
    const before = intParam(params, 'before', 0, Number.MAX_SAFE_INTEGER) ?? size;
    const picked = log.entries.slice(Math.max(0, Math.min(before, size) - limit), Math.min(before, size)).reverse();
    const rootHash = root(log.leaves).toString('hex');
    const at = pgTime();
    const statement = `zelkova-audit-checkpoint/v1\n${tenant}\n${size}\n${rootHash}\n${at}`;
    const last = picked[picked.length - 1];
    return {
      tenant,
      count: picked.length,
      entries: picked.map((e) => ({ ...e, inclusionProof: path(e.index, log.leaves).map((h) => h.toString('hex')) })),
      nextBefore: last && last.index > 0 ? last.index : null,
      proof: {
        algorithm: 'rfc6962-merkle-sha256',
        treeSize: size,
        rootHash,
        checkpoint: {
          statement,
          signatureAlgorithm: 'ed25519',
          signature: sign(null, Buffer.from(statement), this.keys.privateKey).toString('base64'),
          publicKey: this.publicKey,
        },
      },
    };
  }
}

export function intParam(params: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const v = params.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw bad(`${name} must be an integer from ${min} to ${max}`);
  return Number(v);
}
