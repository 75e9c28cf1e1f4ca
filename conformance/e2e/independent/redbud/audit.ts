// The audit log: one hash chain per tenant (the team's `audit_entries` table with a `prev_hash` column).
// Each entry's hash is SHA-256 over "prevHash|seq|at|action|resourceId" (a format string, not a JSON
// canonicalization: what a Rust team writes with `format!`), the first entry linking to 64 zeros.
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { ApiError, type Ctx, now, ok, type Rec } from './http.ts';
import type { Store } from './state.ts';

export const HASH_INPUT = '{prevHash}|{seq}|{at}|{action}|{resourceId}';

export class AuditLog {
  private readonly store: Store;
  private readonly keys = generateKeyPairSync('ed25519');
  constructor(store: Store) {
    this.store = store;
  }

  /** The signed head: Ed25519 over the head digest's raw bytes, and the raw public key (base64), as dalek gives them. */
  private signHead(proof: Rec): void {
    const enc = this.store.options.auditEncoding === 'hex' ? 'hex' : 'base64';
    proof.signatureAlgorithm = 'ed25519';
    proof.signature = sign(null, Buffer.from(proof.headHash, enc), this.keys.privateKey).toString('base64');
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    proof.publicKey = Buffer.from(String(jwk.x), 'base64url').toString('base64');
  }

  private digest(text: string): string {
    return createHash('sha256')
      .update(text)
      .digest(this.store.options.auditEncoding === 'hex' ? 'hex' : 'base64');
  }

  private genesis(): string {
    return this.store.options.auditEncoding === 'hex' ? '0'.repeat(64) : Buffer.alloc(32).toString('base64');
  }

  record(tenant: string, actor: string, action: string, resourceType: string, resourceId: string): void {
    const chain = this.store.audit.get(tenant) ?? [];
    const prevHash = chain.at(-1)?.hash ?? this.genesis();
    const seq = chain.length + 1;
    const at = now();
    const hash = this.digest(`${prevHash}|${seq}|${at}|${action}|${resourceId}`);
    chain.push({ seq, id: randomUUID(), at, actor, action, resourceType, resourceId, prevHash, hash });
    this.store.audit.set(tenant, chain);
  }

  /** GET /audit-log?limit=&cursor=: newest first (Diesel `order(seq.desc())`), keyset paging by seq. */
  list(ctx: Ctx, tenant: string): void {
    const q = ctx.url.searchParams;
    const limit = int(q.get('limit'), 50, 'limit', 1);
    const cursor = q.has('cursor') ? int(q.get('cursor'), 0, 'cursor', 1) : Number.POSITIVE_INFINITY;
    const size = Math.min(limit, this.store.options.auditMaxLimit);
    const chain = this.store.audit.get(tenant) ?? [];
    const older = chain.filter((e) => e.seq < cursor).reverse();
    const entries = older.slice(0, size);
    const last = entries.at(-1);
    const next = older.length > size && last ? last.seq : null;
    const head = chain.at(-1);
    const data: Rec = {
      tenant,
      count: entries.length,
      entries,
      proof: {
        type: 'hash-chain',
        algorithm: 'sha256',
        encoding: this.store.options.auditEncoding,
        input: HASH_INPUT,
        genesis: this.genesis(),
        headSeq: head?.seq ?? 0,
        headHash: head?.hash ?? this.genesis(),
      },
    };
    if (this.store.options.auditSigned) this.signHead(data.proof);
    if (this.store.options.auditPaging === 'link') {
      if (next !== null) ctx.headers.link = `<${ctx.url.pathname}?limit=${size}&cursor=${next}>; rel="next"`;
    } else {
      data.nextCursor = next;
    }
    ok(ctx, data);
  }
}

function int(raw: string | null, fallback: number, name: string, min: number): number {
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new ApiError('invalid_request', `Query parameter ${name} must be an integer of at least ${min}`);
  }
  return Number(raw);
}
