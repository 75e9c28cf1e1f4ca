// The audit log as the `audited` gem records it (auditable_type/id, action, audited_changes), each tenant's
// entries chained: `digest` = SHA-256 hex of the entry's JSON as served (JSON.generate, keys in column order)
// without `digest`, the entry holding `previous_digest` (nil for the first). Paged as pagy does: `page` and
// `limit` (the interface's parameter), with its Link, Current-Page and Total-Count headers.
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { type Ctx, invalid } from './http.ts';
import { nextId, type Rec, rubyTime, type Store } from './state.ts';

const keys = new WeakMap<Store, { privateKey: KeyObject; publicPem: string }>();

function signer(store: Store) {
  let k = keys.get(store);
  if (!k) {
    const pair = generateKeyPairSync('ed25519');
    k = { privateKey: pair.privateKey, publicPem: String(pair.publicKey.export({ type: 'spki', format: 'pem' })) };
    keys.set(store, k);
  }
  return k;
}

export function recordAudit(ctx: Ctx, action: string, type: string, id: string | number, changes: Rec): void {
  const own = ctx.store.audits.filter((a) => a.tenant === ctx.tenant);
  const prev = own.at(-1);
  const entry: Rec = {
    id: nextId(ctx.store, 'audits'),
    sequence: own.length + 1,
    auditable_type: type,
    auditable_id: String(id),
    action,
    audited_changes: changes,
    client_id: ctx.clientId,
    request_uuid: ctx.requestId,
    created_at: rubyTime(ctx.store),
    previous_digest: prev ? prev.entry.digest : null,
  };
  const joined = [entry.previous_digest ?? '', entry.id, action, type, entry.auditable_id, entry.created_at].join('|');
  const input = ctx.store.options.auditDigest === 'joined' ? joined : JSON.stringify(entry);
  entry.digest = createHash('sha256').update(input).digest('hex');
  ctx.store.audits.push({ tenant: ctx.tenant, entry });
}

function positive(ctx: Ctx, name: string, fallback: number): number {
  const raw = ctx.url.searchParams.get(name);
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalid(`${name} must be a positive integer`);
  return Number(raw);
}

export function listAudit(ctx: Ctx): Rec {
  const { auditOldestFirst, auditMaxPerPage } = ctx.store.options;
  const limit = Math.min(positive(ctx, 'limit', 25), auditMaxPerPage);
  const page = positive(ctx, 'page', 1);
  const all = ctx.store.audits.filter((a) => a.tenant === ctx.tenant).map((a) => a.entry);
  const ordered = auditOldestFirst ? all : [...all].reverse();
  const pages = Math.max(1, Math.ceil(all.length / limit));
  const entries = ordered.slice((page - 1) * limit, page * limit);
  const link = (p: number) => {
    const u = new URL(ctx.url.pathname, ctx.origin);
    u.searchParams.set('page', String(p));
    u.searchParams.set('limit', String(limit));
    return u.toString();
  };
  const rels = [`<${link(1)}>; rel="first"`];
  if (page > 1) rels.push(`<${link(page - 1)}>; rel="prev"`);
  if (page < pages) rels.push(`<${link(page + 1)}>; rel="next"`);
  rels.push(`<${link(pages)}>; rel="last"`);
  const paging = {
    current_page: page,
    per_page: limit,
    total_entries: all.length,
    total_pages: pages,
    previous_page: page > 1 ? page - 1 : null,
    next_page: page < pages ? page + 1 : null,
  };
  if (ctx.store.options.auditPaging === 'body')
    return { tenant: ctx.tenant, ...paging, entries, proof: proofOf(ctx, all) };
  Object.assign(ctx.headers, {
    link: rels.join(', '),
    'current-page': String(page),
    'page-items': String(limit),
    'total-pages': String(pages),
    'total-count': String(all.length),
  });
  return { tenant: ctx.tenant, entries, proof: proofOf(ctx, all) };
}

function proofOf(ctx: Ctx, all: Rec[]): Rec {
  const { auditProof } = ctx.store.options;
  const head = all.at(-1);
  const proof: Rec = {
    type: 'hash_chain',
    algorithm: 'SHA256',
    digest_of:
      ctx.store.options.auditDigest === 'joined'
        ? 'previous_digest|id|action|auditable_type|auditable_id|created_at'
        : 'JSON of the entry as served without digest (previous_digest included)',
    head_sequence: head?.sequence ?? 0,
    head_digest: head?.digest ?? null,
  };
  if (auditProof === 'signed' && head) {
    const s = signer(ctx.store);
    proof.signature = sign(null, Buffer.from(head.digest), s.privateKey).toString('base64');
    proof.signature_algorithm = 'Ed25519';
    proof.public_key = s.publicPem;
  }
  return proof;
}
