// The tenant's audit log: an append-only hash chain. Each entry's digest is SHA-256 (hex) over the previous
// entry's digest and its own columns joined by '|' (the genesis links to the empty string), or, in the
// other legal variant, over the entry's Mojo::JSON text without its digest. Pages are read the way Mojo
// apps page: `limit` plus a keyset cursor (`before`/`after` an id) and a Link: rel="next" header.
import { createHash } from 'node:crypto';
import { signHead } from './audit-sign.ts';
import { ApiError, type Ctx, mojoJson, ok } from './http.ts';
import { nextId, PREFIX, type Rec, type Store } from './state.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const COLUMNS = '{prev_digest}|{id}|{at}|{action}|{resource}';

export function record(store: Store, ctx: Ctx, action: string, resource: string): void {
  const tenant = ctx.tenant ?? '';
  const chain = store.audit.get(tenant) ?? [];
  store.audit.set(tenant, chain);
  const prev = chain.at(-1)?.digest ?? '';
  const entry: Rec = {
    id: nextId(store, 'audit_log'),
    at: new Date().toISOString(),
    actor: ctx.clientId ?? 'anonymous',
    action,
    resource,
    request_id: ctx.requestId,
    prev_digest: prev,
  };
  entry.digest =
    store.options.auditDigest === 'mojo-json'
      ? sha256(mojoJson(entry))
      : sha256(`${prev}|${entry.id}|${entry.at}|${entry.action}|${entry.resource}`);
  chain.push(entry);
}

function intParam(ctx: Ctx, name: string, fallback: number): number {
  const raw = ctx.query.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw))
    throw new ApiError('invalid_request', 'Invalid input.', `/query/${name}: Expected integer - got string.`);
  return Number(raw);
}

export function listAudit(store: Store, ctx: Ctx): void {
  const chain = store.audit.get(ctx.tenant ?? '') ?? [];
  const oldestFirst = store.options.auditOldestFirst;
  // Mojo apps clamp the page size instead of refusing it: 0 or a huge limit still answers.
  const limit = Math.min(store.options.auditMaxPerPage, Math.max(1, intParam(ctx, 'limit', 20)));
  const cursorName = oldestFirst ? 'after' : 'before';
  const cursor = intParam(ctx, cursorName, oldestFirst ? 0 : Number.MAX_SAFE_INTEGER);
  const ordered = oldestFirst ? chain.filter((e) => e.id > cursor) : [...chain].reverse().filter((e) => e.id < cursor);
  const entries = ordered.slice(0, limit);
  const last = entries.at(-1);
  if (last && ordered.length > limit) {
    // `url_for` without `to_abs`: Mojo writes the link as a path, resolved against the request's URL.
    ctx.res.setHeader('Link', `<${PREFIX}/audit-log?limit=${limit}&${cursorName}=${last.id}>; rel="next"`);
  }
  const head = chain.at(-1);
  ok(ctx, {
    tenant: ctx.tenant,
    count: entries.length,
    total: chain.length,
    order: oldestFirst ? 'oldest-first' : 'newest-first',
    entries,
    proof: {
      type: 'hash-chain',
      algorithm: 'sha256',
      encoding: 'hex',
      digest: store.options.auditDigest === 'mojo-json' ? 'Mojo::JSON of the entry without digest' : COLUMNS,
      genesis: '',
      head: head?.digest ?? '',
      length: chain.length,
      ...signHead(store, head?.digest ?? ''),
    },
  });
}
