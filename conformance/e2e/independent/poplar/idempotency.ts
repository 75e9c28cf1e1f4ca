// Idempotency records, stored like Firestore documents keyed by tenant and key, with a TTL. A record holds the
// fingerprint (operation + canonical body) and the first successful answer; refusals are not stored.
import { ApiError, type Ctx, canonical } from './http-util.ts';
import { KEY_PATTERN } from './validate.ts';

export const KEY_TTL_MS = 24 * 3600_000;

interface IdemRecord {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export type IdemStore = Map<string, IdemRecord>;

/** The Idempotency-Key header, checked against the pattern; required where the route says so. */
export function readKey(ctx: Ctx, required: boolean): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    if (required) {
      throw new ApiError(
        'idempotency_required',
        'An Idempotency-Key header is required for this call.',
        undefined,
        'Send a key matching ^[A-Za-z0-9._:-]{8,128}$.',
      );
    }
    return undefined;
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'Invalid Idempotency-Key header.',
      'Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$',
    );
  }
  ctx.idempotencyKey = key;
  return key;
}

/**
 * Runs a modifying operation once per (tenant, key): the same content replays the stored data, other content
 * is 409 idempotency_conflict. The operation runs synchronously after the body is read, so concurrent calls
 * with one key cannot both pass the lookup.
 */
export function once(
  store: IdemStore,
  tenant: string,
  key: string,
  op: string,
  body: unknown,
  run: () => unknown,
): { data: unknown; replayed: boolean } {
  const id = `${tenant}\u0000${key}`;
  const fingerprint = `${op}\u0000${canonical(body)}`;
  const now = Date.now();
  const found = store.get(id);
  if (found && found.expiresAt > now) {
    if (found.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'The Idempotency-Key was already used with different content.',
        undefined,
        'Use a new key for each new operation.',
      );
    }
    return { data: found.data, replayed: true };
  }
  const data = run();
  store.set(id, { fingerprint, data, expiresAt: now + KEY_TTL_MS });
  return { data, replayed: false };
}
