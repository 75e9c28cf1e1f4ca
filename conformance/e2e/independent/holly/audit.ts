// The tenant audit log as an RFC 9162 (Certificate Transparency v2) Merkle tree: each entry is a leaf,
// every read states the signed-less tree head (size, root) and an inclusion proof per entry. Hashes are
// bytes, so proto3 JSON writes them as standard base64; int64 fields are strings.
import { createHash } from 'node:crypto';
import { canonical, now } from './http.ts';

export interface AuditEntry {
  name: string;
  sequence: string;
  createTime: string;
  tenant: string;
  actor: string;
  action: string;
  resource: string;
  leafHash: string;
}

const trees = new WeakMap<object, Map<string, { entries: AuditEntry[]; leaves: Buffer[] }>>();

function sha(...parts: Buffer[]): Buffer {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

function treeOf(owner: object, tenant: string) {
  let all = trees.get(owner);
  if (!all) {
    all = new Map();
    trees.set(owner, all);
  }
  let t = all.get(tenant);
  if (!t) {
    t = { entries: [], leaves: [] };
    all.set(tenant, t);
  }
  return t;
}

/** Appends one change; the leaf is SHA-256(0x00 || RFC 8785 JSON of the entry without leafHash). */
export function record(owner: object, tenant: string, actor: string, action: string, resource: string): void {
  const t = treeOf(owner, tenant);
  const seq = t.entries.length + 1;
  const body = {
    name: `tenants/${tenant}/auditEntries/${seq}`,
    sequence: String(seq),
    createTime: now(),
    tenant,
    actor: `clients/${actor}`,
    action,
    resource,
  };
  const leaf = sha(Buffer.from([0]), Buffer.from(canonical(body), 'utf8'));
  t.entries.push({ ...body, leafHash: leaf.toString('base64') });
  t.leaves.push(leaf);
}

function largestPowerBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function root(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha();
  if (leaves.length === 1) return leaves[0] as Buffer;
  const k = largestPowerBelow(leaves.length);
  return sha(Buffer.from([1]), root(leaves.slice(0, k)), root(leaves.slice(k)));
}

/** RFC 9162 section 2.1.3.1 PATH(m, D[n]). */
function path(m: number, leaves: Buffer[]): Buffer[] {
  if (leaves.length <= 1) return [];
  const k = largestPowerBelow(leaves.length);
  if (m < k) return [...path(m, leaves.slice(0, k)), root(leaves.slice(k))];
  return [...path(m - k, leaves.slice(k)), root(leaves.slice(0, k))];
}

/** One page, oldest first (leaf order), each entry with its inclusion proof against the current head. */
/** hex: hashes as lowercase hex; numbers: int64 fields as JSON numbers (proto3 JSON writes strings). */
export function page(
  owner: object,
  tenant: string,
  offset: number,
  size: number,
  form: { hex: boolean; numbers: boolean },
) {
  const { hex } = form;
  const int64 = (n: number) => (form.numbers ? n : String(n));
  const t = treeOf(owner, tenant);
  const enc = (b: Buffer) => b.toString(hex ? 'hex' : 'base64');
  const leaves = t.leaves.slice();
  const treeSize = leaves.length;
  const slice = t.entries.slice(offset, offset + size).map((e, i) => ({
    ...e,
    leafHash: enc(t.leaves[offset + i] as Buffer),
    inclusionProof: {
      leafIndex: int64(offset + i),
      treeSize: int64(treeSize),
      inclusionPath: path(offset + i, leaves).map(enc),
    },
  }));
  const next = offset + size < treeSize ? Buffer.from(`o:${offset + size}`).toString('base64url') : '';
  return {
    entries: slice,
    treeHead: {
      treeSize: int64(treeSize),
      rootHash: enc(root(leaves)),
      hashAlgorithm: 'SHA256',
      scheme: 'RFC9162',
      leafInput: 'RFC8785 JSON of the entry without leafHash and inclusionProof, after a 0x00 byte',
      encoding: hex ? 'hex' : 'base64',
    },
    nextPageToken: next,
    totalSize: treeSize,
  };
}

/** Decodes an opaque page token; undefined when it is not one of ours. */
export function decodeToken(token: string): number | undefined {
  const m = /^o:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : undefined;
}
