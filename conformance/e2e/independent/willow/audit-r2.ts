// The audit log as R2-style append-only objects: one object per entry under audit/<tenant>/<seq, zero padded>,
// never overwritten. Integrity ("willow-chain-v1"): every entry carries sha256(prevHash + "\n" + canonical JSON
// of the entry without its hash); the answer's proof is the head of the chain, an HMAC over it with a
// deployment key (so a rewrite of the whole chain is still detected), and a Merkle root of the page served.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { canonical } from './http-kit.ts';

export const GENESIS = '0'.repeat(64);
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface AuditEntry {
  seq: number;
  id: string;
  at: string;
  action: string;
  actor: { type: 'client' | 'system'; id: string };
  resource: { type: string; id: string };
  requestId: string | null;
  idempotencyKey: string | null;
  changes: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

export type AuditInput = Pick<AuditEntry, 'action' | 'actor' | 'resource' | 'requestId' | 'idempotencyKey' | 'changes'>;

/** The bucket: object key -> frozen JSON text, put-if-absent only. */
export class AppendOnlyBucket {
  objects = new Map<string, string>();
  put(key: string, body: string): void {
    if (this.objects.has(key)) throw new Error('object exists');
    this.objects.set(key, body);
  }
  get(key: string): string | undefined {
    return this.objects.get(key);
  }
}

export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return sha256(`${entry.prevHash}\n${canonical(entry)}`);
}

function merkleRoot(hashes: string[]): string {
  if (hashes.length === 0) return sha256('');
  let level = hashes;
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(sha256(`${level[i]}${level[i + 1] ?? level[i]}`));
    level = next;
  }
  return level[0] ?? sha256('');
}

export class TenantAudit {
  tenant: string;
  bucket: AppendOnlyBucket;
  seq = 0;
  head = GENESIS;
  constructor(tenant: string, bucket: AppendOnlyBucket) {
    this.tenant = tenant;
    this.bucket = bucket;
  }
  key(seq: number): string {
    return `audit/${this.tenant}/${String(seq).padStart(12, '0')}`;
  }
  append(input: AuditInput): AuditEntry {
    this.seq += 1;
    const base = {
      seq: this.seq,
      id: `aud_${randomBytes(10).toString('hex')}`,
      at: new Date().toISOString(),
      ...input,
      prevHash: this.head,
    };
    const entry: AuditEntry = { ...base, hash: entryHash(base) };
    this.bucket.put(this.key(entry.seq), JSON.stringify(entry));
    this.head = entry.hash;
    return entry;
  }
  /** Oldest first, R2 list semantics: entries after `after`, at most `limit`. */
  list(after: number, limit: number): AuditEntry[] {
    const out: AuditEntry[] = [];
    for (let s = after + 1; s <= this.seq && out.length < limit; s++) {
      const text = this.bucket.get(this.key(s));
      if (text !== undefined) out.push(JSON.parse(text) as AuditEntry);
    }
    return out;
  }
}

/** Signs the chain head so a client holding the verification key can tell the log was not rebuilt. */
export class AuditSigner {
  keyId = `wak_${randomBytes(4).toString('hex')}`;
  key = randomBytes(32);
  proof(audit: TenantAudit, page: AuditEntry[]) {
    const head = { tenant: audit.tenant, seq: audit.seq, hash: audit.head };
    return {
      scheme: 'willow-chain-v1',
      hashAlgorithm: 'SHA-256',
      entryHash: 'sha256(prevHash + "\\n" + canonicalJson(entry without hash)), keys sorted',
      genesis: GENESIS,
      head,
      pageMerkleRoot: merkleRoot(page.map((e) => e.hash)),
      signature: {
        algorithm: 'HMAC-SHA256',
        keyId: this.keyId,
        value: createHmac('sha256', this.key).update(canonical(head)).digest('hex'),
      },
    };
  }
}
