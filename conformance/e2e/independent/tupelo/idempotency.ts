// Idempotency: per client, tenant and key; fingerprint = method, path and canonical body. Only successes
// are stored (a refusal stores nothing, so the caller may fix the body and retry with the same key).
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, canonical } from './http.ts';
import type { App } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 60 * 60 * 1000;

interface Stored {
  fingerprint: string;
  data: unknown;
  refusal?: { code: string; message: string; detail?: string };
  expiresAt: number;
}

export function checkKey(header: string | undefined, required: boolean): string | undefined {
  if (header === undefined || header === '') {
    if (required) throw new ApiError('idempotency_required', 'This call needs an Idempotency-Key header.');
    return undefined;
  }
  if (!KEY_PATTERN.test(header)) {
    throw new ApiError('invalid_request', 'The Idempotency-Key does not match ^[A-Za-z0-9._:-]{8,128}$.');
  }
  return header;
}

/** Runs fn once per key; a repeat with the same fingerprint returns the stored data, replayed. */
export async function once<T>(
  app: App,
  scope: string,
  key: string,
  fingerprintOf: unknown,
  fn: () => Promise<T> | T,
): Promise<{ data: T; replayed: boolean }> {
  const fingerprint = createHash('sha256').update(canonical(fingerprintOf)).digest('hex');
  const slot = `${scope}|${key}`;
  // Serialise calls with one key: the second waits for the first, then replays it.
  while (app.inflight.has(slot)) await app.inflight.get(slot)?.catch(() => undefined);
  const kvKey = ['idem', scope, key];
  const prior = app.kv.get<Stored>(kvKey)?.value;
  if (prior && prior.expiresAt > Date.now()) {
    if (prior.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was used with different content.');
    }
    if (prior.refusal) throw new ApiError(prior.refusal.code, prior.refusal.message, prior.refusal.detail);
    return { data: prior.data as T, replayed: true };
  }
  const p = (async () => fn())();
  app.inflight.set(slot, p);
  try {
    const data = await p;
    app.kv.set(kvKey, { fingerprint, data, expiresAt: Date.now() + KEY_TTL_MS });
    return { data, replayed: false };
  } catch (e) {
    if (app.opts.replayRefusals && e instanceof ApiError && e.code !== 'internal') {
      const refusal = { code: e.code, message: e.message, detail: e.detail };
      app.kv.set(kvKey, { fingerprint, data: null, refusal, expiresAt: Date.now() + KEY_TTL_MS });
    }
    throw e;
  } finally {
    app.inflight.delete(slot);
  }
}

export function generateKey(): string {
  return `tpl_${randomBytes(18)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, 'x')}`;
}
