// The audit log: one hash chain per tenant and signed checkpoints (bamboo's own design, see README):
//   hash_n = sha256_hex(canonical(entry_n without `hash`)), entry_n.prevHash = hash_{n-1} (genesis: 64 zeros);
//   canonical = JSON with keys sorted at every level, no whitespace.
// Each read signs the tenant's head with Ed25519 over the text
//   "bamboo.audit.checkpoint.v1\n<tenant>\n<seq>\n<hash>\n<at>"; the public key is in the proof (JWK) and at
// GET /audit-log/keys. Paging: opaque base64url cursors (`nextCursor`), newest first unless configured.
import { createHash, sign } from 'node:crypto';
import type { Ctx } from './pipeline.ts';
import type { AuditEntry, State } from './state.ts';
import { canonical } from './validate.ts';
import { type Call, invalid, ok, timestamp, typeId } from './wire.ts';

const GENESIS = '0'.repeat(64);

export function hashEntry(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(canonical(entry)).digest('hex');
}

export function recordAudit(state: State, ctx: Ctx, call: Call, action: string, target: string): void {
  const chain = state.audit.get(ctx.tenant) ?? [];
  state.audit.set(ctx.tenant, chain);
  const prev = chain[chain.length - 1];
  const base = {
    seq: chain.length + 1,
    id: typeId('aud'),
    at: timestamp(),
    tenant: ctx.tenant,
    actor: `client:${ctx.clientId}`,
    action,
    target,
    requestId: call.requestId,
    idempotencyKey: ctx.key ?? null,
    prevHash: prev ? prev.hash : GENESIS,
  };
  chain.push({ ...base, hash: hashEntry(base) });
}

function jwk(state: State): Record<string, unknown> {
  return {
    ...(state.signingKey.publicKey.export({ format: 'jwk' }) as Record<string, unknown>),
    kid: state.signingKey.keyId,
    alg: 'EdDSA',
    use: 'sig',
  };
}

function checkpoint(state: State, tenant: string, head: AuditEntry | undefined): Record<string, unknown> {
  const seq = head?.seq ?? 0;
  const hash = head?.hash ?? GENESIS;
  const at = timestamp();
  const signed = `bamboo.audit.checkpoint.v1\n${tenant}\n${seq}\n${hash}\n${at}`;
  const signature = sign(null, Buffer.from(signed), state.signingKey.privateKey).toString('base64url');
  return { tenant, seq, hash, at, keyId: state.signingKey.keyId, signatureAlgorithm: 'Ed25519', signature };
}

interface Cursor {
  after: number;
  dir: 'desc' | 'asc';
}

function readCursor(raw: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (Number.isInteger(c.after) && c.after >= 0 && (c.dir === 'desc' || c.dir === 'asc')) return c;
  } catch {
    // fall through to the refusal
  }
  throw invalid('`cursor` is not a cursor this service issued.');
}

export function listAudit(call: Call, ctx: Ctx): void {
  const q = call.url.searchParams;
  const rawLimit = q.get('limit');
  const limit = rawLimit === null ? 50 : Number(rawLimit);
  if (!/^\d+$/.test(rawLimit ?? '50') || limit < 1 || limit > 500)
    throw invalid('`limit` must be an integer from 1 to 500.');
  const chain = ctx.state.audit.get(ctx.tenant) ?? [];
  const rawCursor = q.get('cursor');
  const dir: Cursor['dir'] = ctx.state.options.auditOldestFirst ? 'asc' : 'desc';
  const cursor = rawCursor === null ? undefined : readCursor(rawCursor);
  const ordered = cursor?.dir === 'asc' || (!cursor && dir === 'asc') ? chain : [...chain].reverse();
  const from = cursor
    ? ordered.findIndex((e) => (cursor.dir === 'asc' ? e.seq > cursor.after : e.seq < cursor.after))
    : 0;
  const page = from < 0 ? [] : ordered.slice(from, from + limit);
  const last = page[page.length - 1];
  const more = from >= 0 && from + limit < ordered.length && last !== undefined;
  const nextCursor = more
    ? Buffer.from(JSON.stringify({ after: last.seq, dir: cursor?.dir ?? dir })).toString('base64url')
    : null;
  ok(call, {
    tenant: ctx.tenant,
    order: (cursor?.dir ?? dir) === 'desc' ? 'newest_first' : 'oldest_first',
    count: page.length,
    entries: page,
    nextCursor,
    proof: {
      scheme: 'bamboo-hash-chain-v1',
      hashAlgorithm: 'sha256',
      canonicalization: 'sorted-keys-compact-json',
      genesisPrevHash: GENESIS,
      // canonical() is RFC 8785 for these entries (strings, integers, null; keys in UTF-16 order).
      ...(ctx.state.options.auditProofRfc8785 ? rfc8785Names(page, chain) : {}),
      head: { seq: chain.length, hash: chain[chain.length - 1]?.hash ?? GENESIS },
      checkpoint: checkpoint(ctx.state, ctx.tenant, chain[chain.length - 1]),
      publicKey: jwk(ctx.state),
    },
  });
}

/** The page's range in commonly used names: the first entry's prevHash anchors it, headHash ends the chain. */
function rfc8785Names(page: AuditEntry[], chain: AuditEntry[]): Record<string, unknown> {
  const seqs = page.map((e) => e.seq);
  const first = page.find((e) => e.seq === Math.min(...seqs));
  return {
    algorithm: 'sha256',
    canonicalization: 'RFC8785',
    fromSeq: seqs.length ? Math.min(...seqs) : 0,
    toSeq: seqs.length ? Math.max(...seqs) : 0,
    anchorPrevHash: first?.prevHash ?? GENESIS,
    headHash: chain[chain.length - 1]?.hash ?? GENESIS,
  };
}

export function auditKeys(call: Call, ctx: Ctx): void {
  ok(call, { keys: [jwk(ctx.state)] });
}
