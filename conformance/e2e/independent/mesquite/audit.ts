// The audit log: one hash chain per tenant, `crypto:hashSha256` over a pipe-joined line of the entry's
// fields and the previous entry's hash (Ballerina's `toBase16()`: lowercase hex). The first entry links
// to the zero digest. Pages by `limit`/`offset`, newest first unless configured otherwise.
import { createHash, sign } from 'node:crypto';
import { ApiError, type Ctx, ok } from './http.ts';
import { civilNow, type Rec, type Store, uuid } from './state.ts';

/** The first entry's link: the zero digest in the chain's encoding, or nil (`()` is JSON null). */
function genesis(store: Store): string | null {
  if (store.options.auditGenesis === 'nil') return null;
  return Buffer.alloc(32).toString(store.options.auditEncoding);
}

/** The hashed line; the README and the profile's `auditEntryHash.input` spell the same template. */
export function entryLine(e: Rec): string {
  return `${e.previousHash ?? ''}|${e.sequenceNo}|${e.action}|${e.resourceId}|${e.occurredAt}`;
}

const sha = (store: Store, s: string): string => createHash('sha256').update(s).digest(store.options.auditEncoding);

export function record(
  store: Store,
  tenant: string,
  actor: string,
  action: string,
  resourceType: string,
  resourceId: string,
): void {
  let chain = store.audit.get(tenant);
  if (!chain) {
    chain = [];
    store.audit.set(tenant, chain);
  }
  const last = chain[chain.length - 1];
  const entry: Rec = {
    id: uuid(),
    sequenceNo: chain.length + 1,
    action,
    resourceType,
    resourceId,
    actor,
    occurredAt: civilNow(),
    previousHash: last ? last.entryHash : genesis(store),
  };
  entry.entryHash = sha(store, entryLine(entry));
  chain.push(entry);
}

function intParam(ctx: Ctx, name: string, fallback: number, min: number): number {
  const v = ctx.url.searchParams.get(name);
  if (v === null) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min)
    throw new ApiError('invalid_request', `Query parameter '${name}' must be an integer of at least ${min}.`);
  return Number(v);
}

export function auditLog(ctx: Ctx): void {
  const { store } = ctx;
  const chain = store.audit.get(ctx.tenant ?? '') ?? [];
  const limit = Math.min(intParam(ctx, 'limit', 20, 1), store.options.auditMaxLimit);
  const offset = intParam(ctx, 'offset', 0, 0);
  const ordered = store.options.auditOldestFirst ? chain : [...chain].reverse();
  const entries = ordered.slice(offset, offset + limit);
  const head = chain[chain.length - 1];
  ok(ctx, {
    tenant: ctx.tenant,
    count: entries.length,
    total: chain.length,
    limit,
    offset,
    order: store.options.auditOldestFirst ? 'oldest-first' : 'newest-first',
    nextOffset: offset + limit < chain.length ? offset + limit : null,
    entries,
    integrity: {
      method: 'sha256-hash-chain',
      hashInput: 'previousHash|sequenceNo|action|resourceId|occurredAt',
      genesisPreviousHash: genesis(store),
      headSequenceNo: head ? head.sequenceNo : 0,
      headHash: head ? head.entryHash : null,
      // `crypto:signRsaSha256` over the head hash's text: whoever holds the public key can pin the chain.
      // An empty chain has no head, so nothing is signed.
      ...(head
        ? {
            signatureAlgorithm: 'RS256',
            signature: sign('sha256', Buffer.from(head.entryHash), store.auditKey.privateKey).toString('base64'),
            publicKey: store.auditKey.publicPem,
          }
        : {}),
      verifiedAt: civilNow(),
      verified: chain.every(
        (e, i) =>
          e.entryHash === sha(store, entryLine(e)) && e.previousHash === (i ? chain[i - 1]?.entryHash : genesis(store)),
      ),
    },
  });
}
