// The tenant's audit log as a SHA-256 hash chain (the team's habit: OpenSSL::Digest over a pipe-joined
// line, not over JSON): entry_hash = sha256_hex("prev_hash|seq|action|target_id|created_at"), the first
// entry linking to 64 zeros. Pages are numbered (`page`, `per_page`), newest first, with a Link header.
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { type Ctx, halt, ok } from './http.ts';
import { type Rec, type Store, snowflake } from './state.ts';

const GENESIS = '0'.repeat(64);
export const HASH_INPUT = '{prev_hash}|{seq}|{action}|{target_id}|{created_at}';

export function entryHash(e: Rec): string {
  const line = `${e.prev_hash}|${e.seq}|${e.action}|${e.target_id}|${e.created_at}`;
  return createHash('sha256').update(line).digest('hex');
}

export function record(store: Store, tenant: string, action: string, target: [string, string], actor: string): void {
  const log = store.audit.get(tenant) ?? [];
  store.audit.set(tenant, log);
  const prev = log[log.length - 1];
  const entry: Rec = {
    id: snowflake(9n),
    seq: log.length + 1,
    action,
    target_type: target[0],
    target_id: target[1],
    actor,
    created_at: new Date().toISOString(),
    prev_hash: prev ? prev.entry_hash : GENESIS,
  };
  entry.entry_hash = entryHash(entry);
  log.push(entry);
}

const keys = new WeakMap<Store, { privateKey: KeyObject; publicKey: KeyObject }>();

/** With `auditSigned`, the chain head is signed with Ed25519 (OpenSSL's EVP_DigestSign), key shown as PEM. */
function signedHead(store: Store, head: string): Rec {
  let pair = keys.get(store);
  if (!pair) {
    pair = generateKeyPairSync('ed25519');
    keys.set(store, pair);
  }
  return {
    signature_algorithm: 'Ed25519',
    signature: sign(null, Buffer.from(head), pair.privateKey).toString('base64'),
    public_key: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const encode = (seq: number) => Buffer.from(`seq:${seq}`).toString('base64url');

/** With `auditPaging: 'cursor'`: `?cursor=` (opaque) continues after an entry; `data.next_cursor` names it. */
function cursorPage(ctx: Ctx, all: Rec[], perPage: number, data: Rec): void {
  const raw = ctx.url.searchParams.get('cursor');
  let start = 0;
  if (raw !== null) {
    const seq = /^seq:(\d+)$/.exec(Buffer.from(raw, 'base64url').toString('utf8'))?.[1];
    const at = all.findIndex((e) => String(e.seq) === seq);
    if (at < 0) halt('invalid_request', 'cursor is not one this log issued');
    start = at + 1;
  }
  const entries = all.slice(start, start + perPage);
  const last = entries[entries.length - 1];
  const more = start + perPage < all.length;
  const { page: _p, total_pages: _t, ...rest } = data;
  ok(ctx, { ...rest, entries, next_cursor: more && last ? encode(last.seq) : null });
}

function intParam(ctx: Ctx, name: string, fallback: number): number {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) halt('invalid_request', `${name} must be a positive integer`);
  return Number(raw);
}

/** GET /audit-log?limit=&page= : a `limit` above the cap is clamped, as Granite's paginate helper does. */
export function listAudit(store: Store, ctx: Ctx): void {
  const { auditMaxPerPage, auditOldestFirst } = store.options;
  const perPage = Math.min(intParam(ctx, 'limit', 20), auditMaxPerPage);
  const page = intParam(ctx, 'page', 1);
  const all = [...(store.audit.get(ctx.tenant ?? '') ?? [])];
  if (!auditOldestFirst) all.reverse();
  const totalPages = Math.max(1, Math.ceil(all.length / perPage));
  const entries = all.slice((page - 1) * perPage, page * perPage);
  const head = all.length ? (auditOldestFirst ? all[all.length - 1] : all[0]) : undefined;
  const data: Rec = {
    entries,
    page,
    per_page: perPage,
    total: all.length,
    total_pages: totalPages,
    order: auditOldestFirst ? 'oldest_first' : 'newest_first',
    chain: { algorithm: 'sha256', hash_input: HASH_INPUT, genesis: GENESIS, head: head?.entry_hash ?? GENESIS },
  };
  if (store.options.auditSigned) Object.assign(data.chain, signedHead(store, data.chain.head));
  if (store.options.auditPaging === 'cursor') {
    cursorPage(ctx, all, perPage, data);
    return;
  }
  if (page < totalPages) {
    const next = `/api/public/v1/audit-log?limit=${perPage}&page=${page + 1}`;
    ctx.rateHeaders = { ...ctx.rateHeaders, Link: `<${next}>; rel="next"` };
  }
  ok(ctx, data);
}
