// The audit log: per tenant an append-only Merkle log in the manner of Certificate Transparency (RFC 6962:
// leaf = SHA-256(0x00 || canonical JSON of the entry), node = SHA-256(0x01 || left || right)), and every
// read carries a signed tree head (Ed25519 over the canonical JSON of tenant, tree size, root and time).
// A client keeps the last tree head it saw; a rewritten or dropped entry changes the root.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { ApiError, BASE, canonical, instant } from './http-kit.ts';

export interface AuditEntry {
  seq: number;
  at: string;
  actor: string;
  action: string;
  target: { type: string; id: string };
  summary: Record<string, unknown>;
  requestId: string;
  idempotencyKey?: string;
  leafHash: string;
}

const sha = (...parts: Buffer[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

function treeHash(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return leaves[0] ?? sha();
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha(Buffer.from([1]), treeHash(leaves.slice(0, k)), treeHash(leaves.slice(k)));
}

export interface AuditLog {
  record(tenant: string, e: Omit<AuditEntry, 'seq' | 'at' | 'leafHash'>): void;
  page(tenant: string, query: URLSearchParams, oldestFirst: boolean): Record<string, unknown>;
  publicJwk: Record<string, unknown>;
}

export function createAuditLog(): AuditLog {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const publicJwk = { ...publicKey.export({ format: 'jwk' }), use: 'sig', alg: 'EdDSA' } as Record<string, unknown>;
  const keyId = createHash('sha256').update(String(publicJwk.x)).digest('hex').slice(0, 16);
  publicJwk.kid = keyId;
  const logs = new Map<string, { entries: AuditEntry[]; leaves: Buffer[] }>();

  const logOf = (tenant: string) => {
    let l = logs.get(tenant);
    if (!l) {
      l = { entries: [], leaves: [] };
      logs.set(tenant, l);
    }
    return l;
  };

  function proof(tenant: string): Record<string, unknown> {
    const l = logOf(tenant);
    const head = {
      tenant,
      treeSize: l.leaves.length,
      rootHash: treeHash(l.leaves).toString('hex'),
      timestamp: instant(),
    };
    const signature = sign(null, Buffer.from(canonical(head)), privateKey).toString('base64url');
    return {
      format: 'tamarack-merkle/1',
      leafHash: 'sha256(0x00 || utf8(canonical JSON of the entry without leafHash, keys sorted))',
      nodeHash: 'sha256(0x01 || left || right), RFC 6962 section 2.1',
      treeSize: head.treeSize,
      rootHash: head.rootHash,
      signedTreeHead: {
        ...head,
        algorithm: 'Ed25519',
        keyId,
        signature,
        signedOver: 'canonical JSON of {rootHash, tenant, timestamp, treeSize}',
      },
      publicKey: publicJwk,
    };
  }

  return {
    publicJwk,
    record(tenant, e) {
      const l = logOf(tenant);
      const body = { ...e, seq: l.entries.length + 1, at: instant() };
      const leaf = sha(Buffer.from([0]), Buffer.from(canonical(body)));
      l.leaves.push(leaf);
      l.entries.push({ ...body, leafHash: leaf.toString('hex') });
    },
    page(tenant, query, oldestFirst) {
      const limitText = query.get('limit') ?? '50';
      if (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 200) {
        throw new ApiError('invalid_request', 'limit: expected an integer from 1 to 200.');
      }
      const limit = Number(limitText);
      const fromText = query.get(oldestFirst ? 'after' : 'before');
      if (fromText !== null && !/^\d{1,9}$/.test(fromText)) {
        throw new ApiError('invalid_request', `${oldestFirst ? 'after' : 'before'}: expected a sequence number.`);
      }
      const l = logOf(tenant);
      const ordered = oldestFirst ? l.entries : [...l.entries].reverse();
      const from = fromText === null ? undefined : Number(fromText);
      const rest = from === undefined ? ordered : ordered.filter((e) => (oldestFirst ? e.seq > from : e.seq < from));
      const entries = rest.slice(0, limit);
      const lastSeq = entries.at(-1)?.seq;
      const data: Record<string, unknown> = {
        tenant,
        order: oldestFirst ? 'oldest_first' : 'newest_first',
        count: entries.length,
        entries,
      };
      if (rest.length > limit && lastSeq !== undefined) {
        data.nextPage = `${BASE}/audit-log?limit=${limit}&${oldestFirst ? 'after' : 'before'}=${lastSeq}`;
      }
      data.proof = proof(tenant);
      return data;
    },
  };
}
