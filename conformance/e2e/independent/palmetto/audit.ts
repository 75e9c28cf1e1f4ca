// The audit table of palmetto: one row per change of a tenant, each row's SHA-256 over its predecessor's hash
// and its own columns (a trigger-maintained chain), plus the day's Merkle root over the rows' hashes, as the
// nightly job would publish it. GET /audit-log pages newest first by `before` (a keyset on the sequence).
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, ok, type Rec } from './http.ts';
import type { Store } from './state.ts';

export const HASH_INPUT = '{previousHash}|{sequence}|{action}|{resourceId}|{occurredAt}';
const ZEROS = '0'.repeat(64);

const sha256 = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

/** The row's hash: its predecessor's hash (empty for none), then its columns, `|`-separated. */
export const rowHash = (r: Rec): string =>
  sha256(`${r.previousHash ?? ''}|${r.sequence}|${r.action}|${r.resourceId}|${r.occurredAt}`);

/** A Merkle root over hex leaves: SHA-256 of the two children's bytes; an odd node is carried up. */
export function merkleRoot(leaves: string[]): string | null {
  if (leaves.length === 0) return null;
  let level: Buffer[] = leaves.map((h) => Buffer.from(h, 'hex'));
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const a = level[i] as Buffer;
      const b = level[i + 1];
      next.push(
        b
          ? createHash('sha256')
              .update(Buffer.concat([a, b]))
              .digest()
          : a,
      );
    }
    level = next;
  }
  return (level[0] as Buffer).toString('hex');
}

export class Audit {
  private readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  record(ctx: Ctx, action: string, resourceType: string, resourceId: string): void {
    const rows = this.store.list(this.store.audit, ctx.tenant);
    const prev = rows.at(-1);
    const row: Rec = {
      id: this.store.seq.next(),
      sequence: rows.length + 1,
      tenant: ctx.tenant,
      action,
      resourceType,
      resourceId,
      actor: ctx.clientId,
      requestId: ctx.requestId,
      occurredAt: new Date().toISOString(),
      previousHash: prev ? prev.hash : this.store.options.auditGenesis === 'null' ? null : ZEROS,
    };
    row.hash = rowHash(row);
    rows.push(row);
  }

  /** GET /audit-log?limit=&before=: a page newest first, the chain head and today's Merkle root. */
  list(ctx: Ctx): void {
    const max = this.store.options.auditMaxPerPage;
    const limitRaw = ctx.url.searchParams.get('limit');
    const beforeRaw = ctx.url.searchParams.get('before');
    if (limitRaw !== null && !/^\d+$/.test(limitRaw))
      throw new ApiError(400, 'invalid_request', 'limit must be an integer', 'query.limit');
    if (beforeRaw !== null && !/^\d+$/.test(beforeRaw))
      throw new ApiError(400, 'invalid_request', 'before must be an integer', 'query.before');
    // @Min(1) @Max(max) would refuse; this resource clamps instead, as its Javadoc promises.
    const limit = Math.min(max, Math.max(1, limitRaw === null ? 50 : Number(limitRaw)));
    const rows = this.store.list(this.store.audit, ctx.tenant);
    const before = beforeRaw === null ? Number.POSITIVE_INFINITY : Number(beforeRaw);
    const older = rows.filter((r) => r.sequence < before).reverse();
    const entries = older.slice(0, limit);
    const last = entries.at(-1);
    const more = older.length > limit && last !== undefined;
    const day = new Date().toISOString().slice(0, 10);
    const head = rows.at(-1);
    const nextPath = more ? `/api/public/v1/audit-log?limit=${limit}&before=${last.sequence}` : null;
    const byLink = this.store.options.auditPaging === 'link';
    if (byLink && nextPath) ctx.headers.link = `<${nextPath}>; rel="next"`;
    ok(ctx, {
      tenant: ctx.tenant,
      limit,
      count: entries.length,
      entries,
      ...(byLink ? {} : { next: nextPath }),
      proof: {
        algorithm: 'SHA-256',
        entryHash: {
          field: 'hash',
          input: HASH_INPUT,
          genesis: this.store.options.auditGenesis === 'null' ? null : ZEROS,
        },
        headSequence: head?.sequence ?? 0,
        headHash: head?.hash ?? null,
        merkle: { day, root: merkleRoot(rows.filter((r) => String(r.occurredAt).startsWith(day)).map((r) => r.hash)) },
      },
    });
  }
}
