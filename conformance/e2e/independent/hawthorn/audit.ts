// The audit log: an append-only table per tenant (no UPDATE or DELETE is ever issued), each row chained by
// SHA-256 and, every checkpointEvery rows, sealed by a Merkle checkpoint. How to verify (README too):
//   hash(n) = hex(SHA-256(prevHash(n) + "\n" + canonicalJSON(row n without "hash")))   prevHash(1) = 64 "0"
//   leaf = SHA-256(0x00 || bytes(hash)), node = SHA-256(0x01 || left || right), an odd last node is promoted;
//   checkpoint k covers rows (k-1)*size+1 … k*size and publishes the root as hex.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, canonical, nowIso, sha256Hex } from './util.ts';

export interface AuditRow {
  seq: number;
  at: string;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  requestId: string;
  idempotencyKey?: string;
  summary: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

export interface Checkpoint {
  index: number;
  fromSeq: number;
  toSeq: number;
  merkleRoot: string;
  sealedAt: string;
}

const GENESIS = '0'.repeat(64);
const h = (...parts: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();

export function merkleRoot(hashes: string[]): string {
  let level: Buffer[] = hashes.map((x) => h(Buffer.from([0]), Buffer.from(x, 'hex')));
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const [left, right] = [level[i], level[i + 1]];
      if (left && right) next.push(h(Buffer.from([1]), left, right));
      else if (left) next.push(left);
    }
    level = next;
  }
  return level[0]?.toString('hex') ?? GENESIS;
}

export class AuditLog {
  private rows = new Map<string, AuditRow[]>();
  private checkpoints = new Map<string, Checkpoint[]>();
  private every: number;

  /** Also name the hash and canonicalization in the kit's vocabulary (true of this chain: SHA-256, JCS). */
  private labels: boolean;

  constructor(checkpointEvery: number, labels = false) {
    this.every = checkpointEvery;
    this.labels = labels;
  }

  append(ctx: Ctx, action: string, resourceType: string, resourceId: string, summary: Record<string, unknown>): void {
    const tenant = ctx.tenant ?? '';
    const rows = this.rows.get(tenant) ?? [];
    const prevHash = rows.at(-1)?.hash ?? GENESIS;
    const row: Omit<AuditRow, 'hash'> = {
      seq: rows.length + 1,
      at: nowIso(),
      action,
      resourceType,
      resourceId,
      actor: ctx.clientId ?? 'system',
      requestId: ctx.requestId,
      idempotencyKey: ctx.idempotencyKey,
      summary,
      prevHash,
    };
    rows.push({ ...row, hash: sha256Hex(`${prevHash}\n${canonical(row)}`) });
    this.rows.set(tenant, rows);
    if (rows.length % this.every === 0) {
      const cps = this.checkpoints.get(tenant) ?? [];
      const from = rows.length - this.every + 1;
      const root = merkleRoot(rows.slice(from - 1).map((r) => r.hash));
      cps.push({ index: cps.length + 1, fromSeq: from, toSeq: rows.length, merkleRoot: root, sealedAt: nowIso() });
      this.checkpoints.set(tenant, cps);
    }
  }

  /** GET /audit-log?limit=&beforeSeq=: newest first, paged backwards by sequence number. */
  page(ctx: Ctx): Record<string, unknown> {
    const q = ctx.url.searchParams;
    const limitRaw = q.get('limit') ?? '50';
    if (!/^\d{1,4}$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 500)
      throw new ApiError(
        400,
        'invalid_request',
        'Request incomplete or unsuitable',
        'limit: must be an integer between 1 and 500',
      );
    const beforeRaw = q.get('beforeSeq');
    if (beforeRaw !== null && !/^\d{1,15}$/.test(beforeRaw))
      throw new ApiError(
        400,
        'invalid_request',
        'Request incomplete or unsuitable',
        'beforeSeq: must be an integer, minimum 0',
      );
    const limit = Number(limitRaw);
    const rows = this.rows.get(ctx.tenant ?? '') ?? [];
    const before = beforeRaw === null ? rows.length + 1 : Number(beforeRaw);
    const upto = Math.min(before - 1, rows.length);
    const from = Math.max(1, upto - limit + 1);
    const entries = upto >= 1 ? rows.slice(from - 1, upto).reverse() : [];
    const cps = this.checkpoints.get(ctx.tenant ?? '') ?? [];
    const head = rows.at(-1);
    return {
      tenant: ctx.tenant,
      order: 'newest-first',
      count: entries.length,
      total: rows.length,
      entries,
      next: from > 1 ? `/api/public/v1/audit-log?limit=${limit}&beforeSeq=${from}` : null,
      proof: {
        scheme: 'hawthorn-sha256-chain+merkle/v1',
        ...(this.labels
          ? {
              algorithm: 'sha256',
              canonicalization: 'RFC8785',
              fromSeq: entries.at(-1)?.seq ?? 0,
              toSeq: entries[0]?.seq ?? 0,
              anchorPrevHash: entries.at(-1)?.prevHash ?? GENESIS,
            }
          : {}),
        chain:
          'hash = hex(SHA-256(prevHash + "\\n" + canonicalJSON(entry without hash))), keys sorted, no spaces; first prevHash = 64 zeros',
        merkle: 'leaf = SHA-256(0x00 || hash bytes); node = SHA-256(0x01 || left || right); odd last node promoted',
        checkpointEvery: this.every,
        headSeq: head?.seq ?? 0,
        headHash: head?.hash ?? GENESIS,
        checkpoints: cps.slice(-10),
      },
    };
  }
}
