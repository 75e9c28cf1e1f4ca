// The AuditTrail table: per tenant, rows chained by an HMAC-SHA256 over the previous row's MAC and the row's
// canonical JSON (keyed with the service's audit key), and a @Scheduled checkpoint signing the chain head
// with Ed25519, published with its public key (JWK) so a partner verifies without the audit key.
import { createHmac, randomUUID, sign } from 'node:crypto';
import { type Ctx, ok } from './http.ts';
import { page } from './paging.ts';
import { instant, type Rec, type Store } from './state.ts';

const GENESIS = '0'.repeat(64);

/** RFC 8785-style canonical JSON (sorted members): what the MAC and the checkpoint signature cover. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Rec)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export function record(store: Store, tenant: string, action: string, resourceId: string, actor: unknown, details: Rec) {
  const rows = store.audit.get(tenant) ?? [];
  store.audit.set(tenant, rows);
  const prev = rows.at(-1);
  const row: Rec = {
    id: randomUUID(),
    seq: rows.length + 1,
    action,
    resourceId,
    actor: String(actor ?? 'system'),
    occurredAt: instant(undefined, store.options.utcOffsetMinutes),
    details,
    prevHash: prev?.hash ?? GENESIS,
  };
  row.hash = createHmac('sha256', store.auditKey)
    .update(`${row.prevHash}|${canonical(row)}`)
    .digest('hex');
  rows.push(row);
}

/** The scheduled checkpoint: signs { tenant, seq, headHash, signedAt } of each chain whose head moved. */
export function checkpoint(store: Store) {
  for (const [tenant, rows] of store.audit) {
    const head = rows.at(-1);
    if (!head || store.checkpoints.get(tenant)?.seq === head.seq) continue;
    const signed = {
      tenant,
      seq: head.seq,
      headHash: head.hash,
      signedAt: instant(undefined, store.options.utcOffsetMinutes),
    };
    const signature = sign(null, Buffer.from(canonical(signed)), store.checkpointKey.privateKey).toString('base64url');
    store.checkpoints.set(tenant, { ...signed, signature });
  }
}

/** GET /audit-log: a Page of rows (newest first unless configured), the chain head and the latest checkpoint. */
export function auditLog(store: Store, ctx: Ctx) {
  const rows = [...(store.audit.get(String(ctx.tenant)) ?? [])];
  if (!store.options.auditOldestFirst) rows.reverse();
  const head = store.audit.get(String(ctx.tenant))?.at(-1);
  const result = page(ctx, rows, store.options.auditMaxPageSize);
  result.integrity = {
    chain: 'HMAC-SHA256',
    keyed: true,
    input: 'prevHash|canonical(row without hash)',
    genesis: GENESIS,
    head: head ? { seq: head.seq, hash: head.hash } : null,
    checkpoint: store.checkpoints.get(String(ctx.tenant)) ?? null,
    checkpointAlgorithm: 'Ed25519',
    checkpointKey: { ...store.checkpointKey.publicKey.export({ format: 'jwk' }), kid: 'pawpaw-audit-1', use: 'sig' },
  };
  if (store.options.auditMacNames) result.content = result.content.map(renamed);
  ok(ctx, result);
}

/** The entity's own column names: rowMac / previousRowMac (the MAC is the same). */
function renamed({ hash, prevHash, ...row }: Rec): Rec {
  return { ...row, previousRowMac: prevHash, rowMac: hash };
}
