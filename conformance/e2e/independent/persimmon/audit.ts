// The tenant's audit log as a SHA-256 hash chain (cryptonite's `hashWith SHA256`): each entry's hash is the
// digest of its own canonical JSON (sorted keys, without `hash`), which includes the previous entry's
// hash, so changing or dropping any entry breaks every later link. The page carries the chain head.
import { createHash } from 'node:crypto';
import { type Ctx, fail, type Rec, utcNow } from './http.ts';
import { canonical } from './idempotency.ts';
import type { AuditEntry, Store } from './state.ts';

export class AuditLog {
  private readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  private digest(text: string): string {
    return createHash('sha256')
      .update(text)
      .digest(this.store.options.auditEncoding === 'base64' ? 'base64' : 'hex');
  }

  /** The first entry links to the digest-sized run of zero bytes, so every entry has the same shape. */
  private genesis(): string {
    return Buffer.alloc(32).toString(this.store.options.auditEncoding === 'base64' ? 'base64' : 'hex');
  }

  record(tenant: string, actor: string, action: string, target: Rec): void {
    const chain = this.store.audit.get(tenant) ?? [];
    const last = chain[chain.length - 1];
    const unsigned: Omit<AuditEntry, 'hash'> = { seq: chain.length + 1, at: utcNow(), action, actor, target };
    if (last) unsigned.prevHash = last.hash;
    else if (this.store.options.auditGenesis !== 'omitted') unsigned.prevHash = this.genesis();
    chain.push({ ...unsigned, hash: this.digest(canonical(unsigned)) });
    this.store.audit.set(tenant, chain);
  }

  /** Newest first, `limit` per page (clamped), `before=<seq>` for older pages announced in a Link header. */
  page(ctx: Ctx, tenant: string): Rec {
    const { auditPageSize = 20, auditMaxLimit = 100 } = this.store.options;
    const limit = intParam(ctx, 'limit', 1) ?? auditPageSize;
    const before = intParam(ctx, 'before', 1);
    const chain = this.store.audit.get(tenant) ?? [];
    const older = chain.filter((e) => before === undefined || e.seq < before).reverse();
    const entries: AuditEntry[] = older.slice(0, Math.min(limit, auditMaxLimit));
    const lastShown = entries[entries.length - 1];
    if (lastShown && older.length > entries.length) {
      const next = new URL(ctx.url.pathname, ctx.url);
      next.searchParams.set('limit', String(Math.min(limit, auditMaxLimit)));
      next.searchParams.set('before', String(lastShown.seq));
      ctx.headers.link = `<${next.pathname}${next.search}>; rel="next"`;
    }
    const head = chain[chain.length - 1];
    return {
      tenant,
      count: entries.length,
      entries,
      proof: {
        type: 'hash-chain',
        algorithm: 'sha256',
        encoding: this.store.options.auditEncoding ?? 'hex',
        input: 'canonical JSON of the entry without hash (sorted keys)',
        link: 'prevHash',
        genesis: this.store.options.auditGenesis === 'omitted' ? null : this.genesis(),
        headSeq: head?.seq ?? 0,
        headHash: head?.hash ?? this.genesis(),
      },
    };
  }
}

function intParam(ctx: Ctx, name: string, min: number): number | undefined {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw fail.badRequest(`${name} must be an integer of at least ${min}`);
  return Number(raw);
}
