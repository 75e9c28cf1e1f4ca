// totara: the audit log, one hash chain per tenant (each entry's hash over the previous hash and its own fields),
// and an inclusion proof: an RFC 6962 Merkle tree over the chain's hashes, with the audit path of every entry served.
import { createHash } from 'node:crypto';
import { type Ctx, HttpError, principalOf, type Result, type Settings } from './types.ts';
import { cuid, now, sha256 } from './util.ts';

export interface AuditEntry {
  id: string;
  seq: number;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  requestId: string | null;
  changes: Record<string, unknown>;
  createdAt: string;
  prevHash: string;
  hash: string;
}

const GENESIS = '0'.repeat(64);
export const ENTRY_FORMULA = 'sha256_hex(prevHash|seq|action|resourceId|createdAt)';

const h = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

/** RFC 6962 Merkle tree hash of leaves[lo, hi). */
function mth(leaves: Buffer[], lo: number, hi: number): Buffer {
  if (hi - lo === 1) return h(LEAF, leaves[lo] ?? Buffer.alloc(0));
  let k = 1;
  while (k * 2 < hi - lo) k *= 2;
  return h(NODE, mth(leaves, lo, lo + k), mth(leaves, lo + k, hi));
}

/** RFC 6962 audit path of leaf m within leaves[lo, hi). */
function path(m: number, leaves: Buffer[], lo: number, hi: number): string[] {
  if (hi - lo <= 1) return [];
  let k = 1;
  while (k * 2 < hi - lo) k *= 2;
  if (m < k) return [...path(m, leaves, lo, lo + k), mth(leaves, lo + k, hi).toString('hex')];
  return [...path(m - k, leaves, lo + k, hi), mth(leaves, lo, lo + k).toString('hex')];
}

export class AuditLog {
  private readonly chains = new Map<string, AuditEntry[]>();

  private readonly settings: Settings;

  constructor(settings: Settings) {
    this.settings = settings;
  }

  append(
    tenant: string,
    ctx: Ctx | undefined,
    action: string,
    resourceType: string,
    resourceId: string,
    changes: Record<string, unknown> = {},
  ): AuditEntry {
    const chain = this.chains.get(tenant) ?? [];
    this.chains.set(tenant, chain);
    const prevHash = chain.at(-1)?.hash ?? GENESIS;
    const seq = chain.length + 1;
    const createdAt = now();
    const entry: AuditEntry = {
      id: cuid(),
      seq,
      action,
      resourceType,
      resourceId,
      actor: ctx?.principal?.clientId ?? 'system',
      requestId: ctx?.requestId ?? null,
      changes,
      createdAt,
      prevHash,
      hash: sha256(`${prevHash}|${seq}|${action}|${resourceId}|${createdAt}`),
    };
    chain.push(entry);
    return entry;
  }

  /** GET /audit-log?limit=1..100 (default 20): the latest entries with their chain link and inclusion proof. */
  read(ctx: Ctx): Result {
    const raw = ctx.query.get('limit');
    let limit = 20;
    if (raw !== null) {
      if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 100)
        throw new HttpError(
          400,
          'invalid_request',
          'querystring/limit must be integer between 1 and 100',
          'FST_ERR_VALIDATION',
        );
      limit = Number(raw);
    }
    const tenant = principalOf(ctx).tenant;
    const chain = this.chains.get(tenant) ?? [];
    const latest = chain.slice(-limit);
    const leaves = chain.map((e) => Buffer.from(e.hash, 'hex'));
    const size = chain.length;
    const entries = this.settings.auditOrder === 'desc' ? [...latest].reverse() : latest;
    const proof = {
      type: 'hash-chain+rfc6962-merkle',
      algorithm: 'sha256',
      entryHash: ENTRY_FORMULA,
      genesis: GENESIS,
      head: size ? { seq: size, hash: chain[size - 1]?.hash } : null,
      merkle: {
        treeSize: size,
        rootHash: size ? mth(leaves, 0, size).toString('hex') : sha256(''),
        leafHash: 'sha256(0x00 || hashBytes)',
        nodeHash: 'sha256(0x01 || left || right)',
        inclusions: entries.map((e) => ({
          seq: e.seq,
          leafIndex: e.seq - 1,
          auditPath: path(e.seq - 1, leaves, 0, size),
        })),
      },
    };
    return { data: { tenant, count: entries.length, total: size, order: this.settings.auditOrder, entries, proof } };
  }
}
