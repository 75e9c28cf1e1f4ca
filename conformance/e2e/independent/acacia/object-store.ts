// Idempotency on an Object Store (Anypoint habit): one partition per client and tenant, entries with a TTL.
// An entry holds the request fingerprint and the original answer's data, so a replay answers it again.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, header } from './http.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

interface Entry {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export interface ObjectStore {
  ttlMs: number;
  scope: 'tenant' | 'client';
  partitions: Map<string, Map<string, Entry>>;
  /** Keys issued by POST /idempotency-keys, with their operation and expiry. */
  issued: Map<string, { operation: string; expiresAt: number }>;
}

export function createObjectStore(ttlMs: number, scope: 'tenant' | 'client' = 'tenant'): ObjectStore {
  return { ttlMs, scope, partitions: new Map(), issued: new Map() };
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export function fingerprint(store: ObjectStore, ctx: Ctx, body: unknown): string {
  // Partitioned per client only, the tenant the call applies to is part of what the key stands for.
  const tenant = store.scope === 'client' ? `${ctx.tenant ?? ''}\n` : '';
  return createHash('sha256')
    .update(`${ctx.method} ${ctx.path}\n${tenant}${canonical(body)}`)
    .digest('hex');
}

/** Reads and checks the Idempotency-Key header; `required` for the "yes + key" endpoints. */
export function readKey(ctx: Ctx, required: boolean): string | undefined {
  const key = header(ctx, 'idempotency-key');
  if (key === undefined) {
    if (required) {
      throw new ApiError(
        'idempotency_required',
        'An idempotency key is mandatory for this call.',
        'Idempotency-Key: header missing',
        'Send an Idempotency-Key header.',
      );
    }
    return undefined;
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'The idempotency key is malformed.',
      'Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$',
    );
  }
  ctx.idempotencyKey = key;
  return key;
}

function partition(store: ObjectStore, ctx: Ctx): Map<string, Entry> {
  const id = store.scope === 'client' ? (ctx.clientId ?? '') : `${ctx.clientId ?? ''}|${ctx.tenant ?? ''}`;
  let p = store.partitions.get(id);
  if (!p) {
    p = new Map();
    store.partitions.set(id, p);
  }
  return p;
}

/** A stored answer for the key and content, undefined when the key is new; throws on other content. */
export function lookup(store: ObjectStore, ctx: Ctx, key: string, fp: string): { data: unknown } | undefined {
  const p = partition(store, ctx);
  const entry = p.get(key);
  if (!entry) return undefined;
  if (entry.expiresAt <= Date.now()) {
    p.delete(key);
    return undefined;
  }
  if (entry.fingerprint !== fp) {
    throw new ApiError(
      'idempotency_conflict',
      'The idempotency key was used with different content.',
      'Idempotency-Key: already used for another request',
      'Use a new key for each new operation.',
    );
  }
  return { data: entry.data };
}

/** Stores a successful answer (refusals are not stored: the key stays free). */
export function remember(store: ObjectStore, ctx: Ctx, key: string, fp: string, data: unknown): void {
  partition(store, ctx).set(key, { fingerprint: fp, data, expiresAt: Date.now() + store.ttlMs });
}
