// Idempotency exactly as the interface states it: a modifying call needs a key (428 without one); the same
// key with the same content answers the stored response again (meta.replayed true), with other content 409.
// Records are scoped to the access and tenant; the fingerprint is method, path and the canonical body.
import { createHash } from 'node:crypto';
import type { Access } from './auth.ts';
import { ApiError, badRequest, type Ctx, ok } from './http-kit.ts';
import type { State } from './state.ts';
import { newId, str, timestamp } from './values.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** The Idempotency-Key header of a modifying call: 428 when missing, 400 when malformed. */
export function requireKey(ctx: Ctx): string {
  const raw = ctx.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    throw new ApiError(
      428,
      'idempotency_required',
      'an idempotency key is mandatory for this call',
      undefined,
      'send an Idempotency-Key header (POST /api/public/v1/idempotency-keys issues one)',
    );
  }
  if (!KEY_PATTERN.test(key)) throw badRequest('Idempotency-Key is malformed', 'pattern ^[A-Za-z0-9._:-]{8,128}$');
  return key;
}

/** RFC 8785-like canonical JSON (sorted keys), so key order does not change the fingerprint. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Runs `op` once per key and content; a repeat answers the stored data. */
export async function idempotent(
  state: State,
  ctx: Ctx,
  access: Access,
  key: string,
  body: unknown,
  op: () => Promise<unknown> | unknown,
): Promise<void> {
  const fingerprint = createHash('sha256')
    .update(`${ctx.method} ${ctx.url.pathname}\n${canonical(body)}`)
    .digest('hex');
  const slot = `${access.clientId}|${access.tenant}|${key}`;
  const now = Date.now();
  const found = state.idempotency.get(slot);
  if (found && found.expiresAt > now) {
    if (found.fingerprint !== fingerprint) {
      throw new ApiError(
        409,
        'idempotency_conflict',
        'this idempotency key was used with different content',
        undefined,
        'use a new key for each new operation',
      );
    }
    if (found.inFlight) {
      throw new ApiError(
        409,
        'idempotency_conflict',
        'an operation with this key is still in progress',
        undefined,
        'retry later',
      );
    }
    if (found.error) {
      // A stored refusal answers again as it did, marked as a replay.
      found.error.meta = { idempotencyKey: key, replayed: true };
      throw found.error;
    }
    const data =
      state.options.redactKeyOnReplay && isRecord(found.data) && 'signingKey' in found.data
        ? { ...found.data, signingKey: undefined, signingKeyShown: false }
        : found.data;
    ok(ctx, data, { meta: { idempotencyKey: key, replayed: true } });
    return;
  }
  const record = {
    fingerprint,
    status: 200,
    data: undefined as unknown,
    error: undefined as ApiError | undefined,
    expiresAt: now + state.options.idempotencyTtlSeconds * 1000,
    inFlight: true,
  };
  state.idempotency.set(slot, record);
  try {
    record.data = await op();
    record.inFlight = false;
  } catch (err) {
    // Stripe-like, when switched on: a refusal of the operation itself (404, 409 capability_denied) is
    // the response for this key and content too; anything else frees the key.
    if (
      state.options.storeRefusals &&
      err instanceof ApiError &&
      (err.status === 404 || err.code === 'capability_denied')
    ) {
      record.inFlight = false;
      record.error = err;
    } else state.idempotency.delete(slot);
    throw err;
  }
  ok(ctx, record.data, { meta: { idempotencyKey: key, replayed: false } });
}

/** POST /idempotency-keys: a fresh key for an operation, and when it stops being honoured. */
export async function issueKey(state: State, ctx: Ctx, body: Record<string, unknown>): Promise<void> {
  const operation = str(body, 'operation', 2, 80);
  const expiresAt = timestamp(Date.now() + state.options.idempotencyTtlSeconds * 1000);
  ok(ctx, { idempotencyKey: newId('idk'), operation, expiresAt });
}
