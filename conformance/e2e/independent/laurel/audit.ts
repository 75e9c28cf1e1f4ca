// The audit log: per tenant, hash-chained entries (sha256 over the canonical JSON of the entry, which
// includes the previous entry's hash). The proof is an Ed25519 signature as a JWS compact serialization
// over the latest entry's hash; the public key (JWK) is published at GET /api/public/v1/audit-log/key.

import type { KeyObject } from 'node:crypto';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { b64url, canonical, isoTime, sha256Hex, ulid } from './util.ts';

export interface AuditEntry {
  id: string;
  sequence: number;
  at: string;
  tenant: string;
  actor: string;
  action: string;
  resourceType: string;
  resourceId: string;
  requestId: string;
  details: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

const GENESIS = '0'.repeat(64);

export class AuditLog {
  chains = new Map<string, AuditEntry[]>();
  privateKey: KeyObject;
  publicJwk: Record<string, unknown>;
  kid: string;
  constructor() {
    const pair = generateKeyPairSync('ed25519');
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
    this.kid = `laurel-audit-${createHash('sha256').update(String(jwk.x)).digest('hex').slice(0, 12)}`;
    this.publicJwk = { ...jwk, kid: this.kid, alg: 'EdDSA', use: 'sig' };
  }

  record(
    tenant: string,
    fields: Omit<AuditEntry, 'id' | 'sequence' | 'at' | 'tenant' | 'prevHash' | 'hash'>,
  ): AuditEntry {
    const chain = this.chains.get(tenant) ?? [];
    this.chains.set(tenant, chain);
    const prev = chain.at(-1);
    const body = {
      id: ulid(),
      sequence: (prev?.sequence ?? 0) + 1,
      at: isoTime(),
      tenant,
      ...fields,
      prevHash: prev?.hash ?? GENESIS,
    };
    const entry = { ...body, hash: sha256Hex(canonical(body)) };
    chain.push(entry);
    return entry;
  }

  /** Newest first (or oldest first); `from` is the sequence the page continues after (from the cursor). */
  page(
    tenant: string,
    limit: number,
    from: number | undefined,
    oldestFirst: boolean,
  ): { entries: AuditEntry[]; next: number | null } {
    const chain = this.chains.get(tenant) ?? [];
    const rest = oldestFirst
      ? chain.filter((e) => from === undefined || e.sequence > from)
      : chain.filter((e) => from === undefined || e.sequence < from).reverse();
    const entries = rest.slice(0, limit);
    const last = entries.at(-1);
    return { entries, next: rest.length > limit && last ? last.sequence : null };
  }

  /** The signed proof over the chain head, or null for an empty log. */
  proof(tenant: string): Record<string, unknown> | null {
    const head = this.chains.get(tenant)?.at(-1);
    if (!head) return null;
    const header = b64url(JSON.stringify({ alg: 'EdDSA', kid: this.kid, typ: 'laurel-audit+jws' }));
    const payload = b64url(
      JSON.stringify({ tenant, sequence: head.sequence, hash: head.hash, iat: Math.floor(Date.now() / 1000) }),
    );
    const sig = sign(null, Buffer.from(`${header}.${payload}`), this.privateKey).toString('base64url');
    return {
      format: 'JWS',
      alg: 'EdDSA',
      kid: this.kid,
      hashAlgorithm: 'sha256',
      chainHeadSequence: head.sequence,
      chainHeadHash: head.hash,
      signature: `${header}.${payload}.${sig}`,
      keyUrl: '/api/public/v1/audit-log/key',
    };
  }
}

export function encodeCursor(sequence: number): string {
  return b64url(`after:${sequence}`);
}

export function decodeCursor(cursor: string): number | undefined {
  const m = /^after:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m?.[1] ? Number(m[1]) : undefined;
}
