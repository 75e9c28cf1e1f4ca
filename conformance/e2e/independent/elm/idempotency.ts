// Idempotency: keys scoped per tenant, fingerprint over the body only (canonical JSON), kept 24 h.
import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from './http.ts';
import { HttpError, sendOk } from './http.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

type Entry = { fingerprint: string; data: unknown; expiresAt: number };

// issued: keys minted by POST /idempotency-keys, per tenant, with the expiry their answer announced.
export type Idempotency = { byTenant: Map<string, Map<string, Entry>>; issued: Map<string, number> };

export function createIdempotency(): Idempotency {
  return { byTenant: new Map(), issued: new Map() };
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex');
}

// The header as sent (keys are case-sensitive); missing → 428, malformed → 400.
export function requireKey(ctx: Ctx): string {
  const value = ctx.req.headers['idempotency-key'];
  if (value === undefined) {
    throw new HttpError(
      'idempotency_required',
      'The header Idempotency-Key is required for this call.',
      'Send an Idempotency-Key.',
    );
  }
  const key = Array.isArray(value) ? value.join(',') : value;
  if (!KEY_PATTERN.test(key)) {
    throw new HttpError('invalid_request', 'The Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$.');
  }
  return key;
}

function table(idem: Idempotency, tenant: string): Map<string, Entry> {
  let map = idem.byTenant.get(tenant);
  if (!map) {
    map = new Map();
    idem.byTenant.set(tenant, map);
  }
  return map;
}

// Replays a stored answer, refuses a changed body, or runs the operation (synchronously, so that
// concurrent same-key calls cannot both create) and stores its success.
export function runIdempotent(ctx: Ctx, idem: Idempotency, key: string, body: unknown, operation: () => unknown): void {
  const tenant = ctx.tenant ?? '';
  const map = table(idem, tenant);
  const print = fingerprint(body);
  const now = Date.now();
  const entry = map.get(key);
  if (entry && entry.expiresAt > now) {
    if (entry.fingerprint !== print) {
      throw new HttpError(
        'idempotency_conflict',
        'The Idempotency-Key was already used with a different request body.',
        'Use a new key for each new operation.',
      );
    }
    sendOk(ctx, entry.data, { idempotencyKey: key, replayed: true });
    return;
  }
  const data = operation();
  // A key's lifetime runs 24 h from its issue; a client-minted key's from its first use.
  const expiresAt = idem.issued.get(`${tenant} ${key}`) ?? now + KEY_LIFETIME_MS;
  map.set(key, { fingerprint: print, data, expiresAt });
  sendOk(ctx, data, { idempotencyKey: key, replayed: false });
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function issueKey(idem: Idempotency, tenant: string): { key: string; expiresAt: number } {
  const bytes = randomBytes(20);
  let out = '';
  for (const byte of bytes) out += BASE32[byte & 31];
  const key = `idk_${out}`;
  const expiresAt = Date.now() + KEY_LIFETIME_MS;
  idem.issued.set(`${tenant} ${key}`, expiresAt);
  return { key, expiresAt };
}
