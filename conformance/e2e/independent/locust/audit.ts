// The audit log: one hash chain per tenant, each entry's `hash` the SHA-256 (hex) of the entry without `hash`
// as `json.dumps(entry, sort_keys=True, separators=(",", ":"))`, linking to the one before by `prev_hash`.
// Paged newest first by keyset (`before=<id>`), the next page named as a path in `next_page`.
import { createHash } from 'node:crypto';
import { type Ctx, ok, validationError } from './http.ts';
import { dumps } from './pyjson.ts';
import { isoformat, type Rec, type Store } from './state.ts';

/** `compact`: separators=(",", ":"); `python`: the team forgot them, `json.dumps(entry, sort_keys=True)`. */
export function entryHash(entry: Rec, style: 'compact' | 'python'): string {
  const { hash: _h, ...rest } = entry;
  const text = dumps(rest, { sortKeys: true, compact: style === 'compact', ensureAscii: true });
  return createHash('sha256').update(text).digest('hex');
}

export function record(store: Store, tenant: string, actor: string, action: string, resourceId: string): void {
  const chain = store.audit.get(tenant) ?? [];
  store.audit.set(tenant, chain);
  const prev = chain.at(-1);
  const genesis = store.options.auditGenesis === 'zeros' ? '0'.repeat(64) : null;
  const entry: Rec = {
    id: store.nextId('audit_entries'),
    seq: chain.length + 1,
    action,
    resource_type: action.split('.')[0],
    resource_id: resourceId,
    actor,
    created_at: isoformat(),
    prev_hash: prev ? prev.hash : genesis,
  };
  entry.hash = entryHash(entry, store.options.auditJson);
  chain.push(entry);
}

export function auditLog(store: Store, ctx: Ctx): void {
  const errors: Record<string, string[]> = {};
  const max = store.options.auditMaxLimit;
  const limitRaw = ctx.query.get('limit') ?? String(Math.min(50, max));
  const beforeRaw = ctx.query.get('before');
  const limit = /^\d+$/.test(limitRaw) ? Number(limitRaw) : Number.NaN;
  if (!(limit >= 1 && limit <= max))
    errors.limit = [`Must be greater than or equal to 1 and less than or equal to ${max}.`];
  if (beforeRaw !== null && !/^\d+$/.test(beforeRaw)) errors.before = ['Not a valid integer.'];
  if (Object.keys(errors).length > 0) throw validationError(errors);
  const chain = store.audit.get(ctx.tenant ?? '') ?? [];
  const before = beforeRaw === null ? Number.POSITIVE_INFINITY : Number(beforeRaw);
  const older = chain.filter((e) => e.id < before).reverse();
  const entries = older.slice(0, limit);
  const last = entries.at(-1);
  const head = chain.at(-1);
  ok(ctx, {
    entries,
    count: entries.length,
    next_page: older.length > limit && last ? `/api/public/v1/audit-log?limit=${limit}&before=${last.id}` : null,
    proof: {
      type: 'hash_chain',
      hash_algorithm: 'sha256',
      serialization:
        store.options.auditJson === 'compact'
          ? 'json.dumps(entry without hash, sort_keys=True, separators=(",", ":"))'
          : 'json.dumps(entry without hash, sort_keys=True)',
      link_field: 'prev_hash',
      head_hash: head ? head.hash : null,
      head_seq: head ? head.seq : 0,
    },
  });
}
