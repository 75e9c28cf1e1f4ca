// The audit log: one hash chain per tenant. entry.hash = sha256_hex(prev_hash + "\n" + canonical(entry
// without hash)), the first prev_hash is 64 zeros; canonical = JSON with keys sorted at every depth, no
// spaces. Every page carries data.proof: the chain head (seq, hash) signed with Ed25519; the public key is
// served as a JWK at /api/public/v1/audit-log/keys. README.md shows how to verify.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { canonical, pgTime, uuidv7 } from './util.ts';

export interface AuditEntry {
  seq: number;
  id: string;
  at: string;
  tenant: string;
  actor: string;
  action: string;
  resource_type: string;
  resource_id: string;
  request_id: string;
  idempotency_key: string | null;
  change: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export const GENESIS = '0'.repeat(64);

export class AuditLog {
  private readonly chains = new Map<string, AuditEntry[]>();
  private readonly keys = generateKeyPairSync('ed25519');
  readonly keyId = `audit-${uuidv7().slice(0, 8)}`;

  record(tenant: string, e: Omit<AuditEntry, 'seq' | 'id' | 'at' | 'tenant' | 'prev_hash' | 'hash'>): AuditEntry {
    const chain = this.chains.get(tenant) ?? [];
    const prev = chain.at(-1)?.hash ?? GENESIS;
    const base = { ...e, seq: chain.length + 1, id: uuidv7(), at: pgTime(), tenant, prev_hash: prev };
    const hash = createHash('sha256')
      .update(`${prev}\n${canonical(base)}`)
      .digest('hex');
    const entry: AuditEntry = { ...base, hash };
    chain.push(entry);
    this.chains.set(tenant, chain);
    return entry;
  }

  /** A page, newest first unless oldestFirst; offset counts from the first entry of that order. */
  page(tenant: string, limit: number, offset: number, oldestFirst: boolean) {
    const chain = this.chains.get(tenant) ?? [];
    const ordered = oldestFirst ? chain : [...chain].reverse();
    const entries = ordered.slice(offset, offset + limit);
    const head = chain.at(-1);
    const statement = { tenant, head_seq: head?.seq ?? 0, head_hash: head?.hash ?? GENESIS, signed_at: pgTime() };
    const signature = sign(null, Buffer.from(canonical(statement)), this.keys.privateKey).toString('base64url');
    return {
      total: chain.length,
      entries,
      proof: {
        type: 'magnolia-audit-chain/1',
        hash: 'sha256(prev_hash + "\\n" + canonical(entry minus hash))',
        genesis: GENESIS,
        statement,
        signature_alg: 'Ed25519',
        signature,
        key_id: this.keyId,
        keys_path: '/api/public/v1/audit-log/keys',
      },
    };
  }

  jwks(): unknown {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return { keys: [{ ...jwk, kid: this.keyId, use: 'sig', alg: 'EdDSA' }] };
  }
}
