// The tenant's audit log: a hash chain (each entry's SHA-256 over its RFC 8785 JSON without its own hash,
// the previous hash inside it), the chain head signed with Ed25519, paged newest first by an opaque cursor.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { type Ctx, HttpError, nanoid, type Rec } from './http.ts';
import { canonical } from './idempotency.ts';
import type { Store } from './state.ts';

export class AuditLog {
  private chains = new Map<string, Rec[]>();
  private keys = generateKeyPairSync('ed25519');
  readonly publicJwk: Rec = {
    ...this.keys.publicKey.export({ format: 'jwk' }),
    kid: `cw-audit-${nanoid(8)}`,
    alg: 'EdDSA',
    use: 'sig',
  };

  private store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  private digest(text: string): string {
    const h = createHash('sha256').update(text);
    return this.store.options.auditHex ? h.digest('hex') : h.digest('base64url');
  }

  record(ctx: Ctx, action: string, resourceType: string, resourceId: string) {
    const actor = { type: 'client', id: ctx.clientId ?? 'unknown' };
    this.append(ctx.tenant ?? '-', actor, ctx.requestId, action, resourceType, resourceId);
  }

  /** A change the service made by itself (a provider's confirmation): no request, the system acts. */
  recordSystem(tenant: string, action: string, resourceType: string, resourceId: string) {
    this.append(tenant, { type: 'system', id: 'provisioner' }, null, action, resourceType, resourceId);
  }

  private append(
    tenant: string,
    actor: Rec,
    requestId: string | null,
    action: string,
    resourceType: string,
    resourceId: string,
  ) {
    const chain = this.chains.get(tenant) ?? [];
    this.chains.set(tenant, chain);
    const last = chain[chain.length - 1];
    const genesis = this.store.options.auditHex ? '0'.repeat(64) : null;
    const entry: Rec = {
      id: nanoid(),
      seq: chain.length + 1,
      at: new Date().toISOString(),
      action,
      actor,
      resource: { type: resourceType, id: resourceId },
      requestId,
      prevHash: last ? last.hash : genesis,
    };
    // The pipe form is the team's older formula, kept for logs written before they adopted RFC 8785.
    const input = this.store.options.auditHashPipe
      ? `${entry.prevHash}|${entry.seq}|${entry.at}|${action}|${resourceId}`
      : canonical(entry);
    entry.hash = this.digest(input);
    chain.push(entry);
  }

  /** GET /audit-log?limit=&cursor= : newest first (or oldest first), paged by `nextCursor` or a Link header. */
  page(ctx: Ctx, tenant: string): Rec {
    const { auditDefaultLimit, auditMaxLimit } = this.store.options;
    const rawLimit = ctx.query.get('limit');
    let limit = auditDefaultLimit;
    if (rawLimit !== null) {
      limit = Number(rawLimit);
      if (!/^\d+$/.test(rawLimit) || limit < 1) {
        throw new HttpError(
          400,
          'invalid_request',
          'Invalid query',
          '/limit: Expected integer to be greater or equal to 1',
        );
      }
      limit = Math.min(limit, auditMaxLimit); // drizzle `.limit()` behind a clamp, as the team pages everything
    }
    const oldestFirst = this.store.options.auditOldestFirst;
    // The cursor is the last sequence number served; the direction follows the log's order.
    let from = oldestFirst ? 0 : Number.POSITIVE_INFINITY;
    const cursor = ctx.query.get('cursor');
    if (cursor !== null) {
      const seq = Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^seq:/, ''));
      if (!Number.isInteger(seq) || seq < 0) {
        throw new HttpError(400, 'invalid_request', 'Invalid query', '/cursor: Unknown cursor');
      }
      from = seq;
    }
    const chain = this.chains.get(tenant) ?? [];
    const rest = oldestFirst ? chain.filter((e) => e.seq > from) : chain.filter((e) => e.seq < from).reverse();
    const entries = rest.slice(0, limit);
    const lastServed = entries[entries.length - 1];
    const more = rest.length > limit && lastServed !== undefined;
    const nextCursor = more && lastServed ? Buffer.from(`seq:${lastServed.seq}`).toString('base64url') : null;
    if (nextCursor && this.store.options.auditPaging === 'link') {
      ctx.headers.link = `<${ctx.path}?limit=${limit}&cursor=${nextCursor}>; rel="next"`;
    }
    const paging = this.store.options.auditPaging === 'link' ? {} : { hasMore: more, nextCursor };
    const head = chain[chain.length - 1];
    const headHash = head ? String(head.hash) : '';
    const unsigned: Rec = {
      type: 'hash-chain',
      algorithm: 'SHA-256',
      encoding: this.store.options.auditHex ? 'hex' : 'base64url',
      entryHashInput: this.store.options.auditHashPipe
        ? 'prevHash|seq|at|action|resource.id'
        : 'RFC 8785 JSON of the entry without hash',
      headSeq: head ? head.seq : 0,
      headHash,
      signatureAlgorithm: 'Ed25519',
    };
    // Signed text: the head hash, or (the team's later habit) the whole proof's RFC 8785 JSON without the signature.
    const signed = this.store.options.auditSignProof ? canonical(unsigned) : headHash;
    const signature = sign(null, Buffer.from(signed), this.keys.privateKey).toString('base64url');
    return { entries, count: entries.length, ...paging, proof: { ...unsigned, signature, publicKey: this.publicJwk } };
  }
}
