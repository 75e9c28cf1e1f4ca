// The audit log of a tenant: append-only, numbered per tenant, each entry hashed (SHA-256 over its
// canonical JSON without the hash). Integrity is proved by a Merkle tree over the entry hashes in the
// RFC 6962 form (leaf = SHA-256(0x00 || entry hash), node = SHA-256(0x01 || left || right)): the answer
// carries the tree's root and size, and every entry its inclusion path. Pages are `page` and `per_page`
// numbers, newest first, with RFC 8288 Link headers (api-pagination style, plus Total and Per-Page).
import { createHash } from 'node:crypto';
import { tenantOf } from './auth.ts';
import { newUuid, nowIso, onReplica } from './catalog.ts';
import { origin, sendOk } from './http-kit.ts';
import type { AuditEntry, Ctx, State } from './types.ts';
import { wholeNumber } from './validate.ts';

const sha = (...parts: Buffer[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  const ordered = Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1)));
  return createHash('sha256').update(JSON.stringify(ordered)).digest('hex');
}

export function record(
  state: State,
  ctx: Ctx | undefined,
  tenant: string,
  action: string,
  resource: { type: string; id: string },
  changes: Record<string, unknown>,
) {
  const log = state.audit.get(tenant) ?? [];
  state.audit.set(tenant, log);
  const base = {
    seq: log.length + 1,
    id: newUuid(),
    at: nowIso(),
    actor: ctx?.clientId ?? 'system',
    action,
    resourceType: resource.type,
    resourceId: resource.id,
    requestId: ctx?.requestId ?? '',
    changes,
  };
  log.push({ ...base, hash: entryHash(base) });
}

const largestPowerBelow = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

function treeHash(leaves: Buffer[], from: number, to: number): Buffer {
  const n = to - from;
  if (n === 0) return sha();
  if (n === 1) return sha(LEAF, leaves[from] ?? Buffer.alloc(0));
  const k = largestPowerBelow(n);
  return sha(NODE, treeHash(leaves, from, from + k), treeHash(leaves, from + k, to));
}

// RFC 6962 section 2.1.1 audit path of leaf m in leaves[from, to), nearest sibling first.
function auditPath(leaves: Buffer[], m: number, from: number, to: number): { side: string; hash: string }[] {
  const n = to - from;
  if (n <= 1) return [];
  const k = largestPowerBelow(n);
  if (m < k)
    return [
      ...auditPath(leaves, m, from, from + k),
      { side: 'right', hash: treeHash(leaves, from + k, to).toString('hex') },
    ];
  return [
    ...auditPath(leaves, m - k, from + k, to),
    { side: 'left', hash: treeHash(leaves, from, from + k).toString('hex') },
  ];
}

export function auditLog(ctx: Ctx) {
  const tenant = tenantOf(ctx);
  const params = ctx.url.searchParams;
  const page = wholeNumber(params.get('page'), 'page', 1) ?? 1;
  // `limit` (the sample call's name) is the same as per_page; at most auditMaxPerPage (Kaminari max_per_page).
  const asked =
    wholeNumber(params.get('per_page'), 'per_page', 1) ?? wholeNumber(params.get('limit'), 'limit', 1) ?? 25;
  const perPage = Math.min(asked, ctx.state.options.auditMaxPerPage);
  const lag = ctx.state.options.replicaLagMs;
  // The replica holds a prefix of the log (entries are appended in time order).
  const log = (ctx.state.audit.get(tenant) ?? []).filter((e) => onReplica(e.at, lag));
  const leaves = log.map((e) => Buffer.from(e.hash, 'hex'));
  const ordered = ctx.state.options.auditOldestFirst ? [...log] : [...log].reverse();
  const slice = ordered.slice((page - 1) * perPage, page * perPage);
  const totalPages = Math.max(1, Math.ceil(log.length / perPage));
  const entries = slice.map((e) => ({
    ...e,
    inclusionProof: { leafIndex: e.seq - 1, treeSize: log.length, path: auditPath(leaves, e.seq - 1, 0, log.length) },
  }));
  const prefix = ctx.state.options.relativeLinks ? '' : origin(ctx);
  const link = (p: number, rel: string) => `<${prefix}${ctx.url.pathname}?page=${p}&per_page=${perPage}>; rel="${rel}"`;
  const links = [link(1, 'first'), link(totalPages, 'last')];
  if (page > 1) links.push(link(Math.min(page - 1, totalPages), 'prev'));
  if (page < totalPages) links.push(link(page + 1, 'next'));
  const data = {
    tenant,
    page,
    perPage,
    total: log.length,
    totalPages,
    order: ctx.state.options.auditOldestFirst ? 'oldest_first' : 'newest_first',
    entries,
    integrity: {
      algorithm: 'rfc6962-merkle-sha256',
      entryHash: 'sha256 over the entry as JSON, top-level members sorted by name, without hash and inclusionProof',
      leafHash: 'sha256(0x00 || entry hash bytes)',
      nodeHash: 'sha256(0x01 || left || right)',
      treeSize: log.length,
      rootHash: treeHash(leaves, 0, log.length).toString('hex'),
    },
  };
  sendOk(ctx, data, {}, { Link: links.join(', '), Total: String(log.length), 'Per-Page': String(perPage) });
}
