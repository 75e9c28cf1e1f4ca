// Request validation (the contract's limits, lengths counted in characters) and idempotency: the key header,
// the 48 h record per client, tenant and key, replay and conflict. A refused call stores nothing.
import { ApiError, type Ctx, fail, header, KEY_PATTERN, ok } from './http.ts';
import type { State } from './state.ts';
import { canonical, charLength } from './util.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const KEY_TTL_MS = 48 * 3600 * 1000;

function bad(field: string, detail: string): ApiError {
  return new ApiError('invalid_request', `${field}: ${detail}`, 'Check the request against the published description.');
}

/** A string field with a length in characters; undefined when optional and absent. */
export function text(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (v === undefined || v === null) throw bad(field, 'is required');
  if (typeof v !== 'string') throw bad(field, 'must be a string');
  const n = charLength(v);
  if (n < min || n > max) throw bad(field, `must be ${min} to ${max} characters long`);
  return v;
}

export function environment(body: Record<string, unknown>, field: string, required: boolean): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) throw bad(field, `must be one of ${ENVIRONMENTS.join(', ')}`);
  return v;
}

export function textList(body: Record<string, unknown>, field: string, minItems: number, maxItems: number): string[] {
  const v = body[field];
  if (v === undefined || v === null) throw bad(field, 'is required');
  if (!Array.isArray(v)) throw bad(field, 'must be an array of strings');
  if (v.length < minItems || v.length > maxItems) throw bad(field, `must hold ${minItems} to ${maxItems} items`);
  v.forEach((item, i) => {
    if (typeof item !== 'string') throw bad(`${field}.${i}`, 'must be a string');
    const n = charLength(item);
    if (n < 2 || n > 120) throw bad(`${field}.${i}`, 'must be 2 to 120 characters long');
  });
  return v as string[];
}

/** Fields outside the schema (POST /connections: "the field list above is the schema"). */
export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) {
      const hint =
        k === 'restaurantId' ? 'restaurantId was renamed: send scopeLabel.' : `Allowed fields: ${allowed.join(', ')}.`;
      throw new ApiError('invalid_request', `${k}: is not a field of this request`, hint);
    }
  }
}

/** Reads the Idempotency-Key header: 428 when required and missing, 400 off the pattern; sets ctx.key. */
export function readKey(ctx: Ctx, required: boolean): string | undefined {
  const key = header(ctx, 'idempotency-key');
  if (key === undefined || key === '') {
    if (required)
      throw new ApiError(
        'idempotency_required',
        'Send the header Idempotency-Key.',
        'POST /api/public/v1/idempotency-keys issues one.',
      );
    return undefined;
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$',
      'Use 8 to 128 letters, digits, dot, underscore, colon or hyphen.',
    );
  }
  ctx.key = key;
  return key;
}

/**
 * Runs a modifying operation once per key: the same key and content replays the stored data (meta.replayed
 * true), other content answers 409 idempotency_conflict. Without a key (optional ones) it simply runs.
 */
export function idempotent(state: State, ctx: Ctx, operation: string, body: unknown, run: () => unknown): void {
  if (ctx.key === undefined) {
    ok(ctx, run());
    return;
  }
  const scope = `${ctx.clientId}|${ctx.tenant}|${ctx.key}`;
  const fingerprint = `${operation}|${canonical(body)}`;
  const now = Date.now();
  const stored = state.keys.get(scope);
  if (stored && stored.expiresAt > now) {
    if (stored.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'This key was used with different content.',
        'Use a new key for each new operation.',
      );
    }
    if (stored.error) fail(ctx, stored.error, true);
    else ok(ctx, stored.data, true);
    return;
  }
  const issued = state.issued.get(ctx.key);
  const name = operation.split('|')[0];
  if (state.opts.bindIssuedKeys && issued && issued.operation !== name) {
    throw new ApiError(
      'idempotency_conflict',
      `This key was issued for ${issued.operation}.`,
      'Use a new key for each new operation.',
    );
  }
  // Synchronous from here to the store: two same-key calls cannot interleave on one event loop.
  let data: unknown;
  try {
    data = run();
  } catch (e) {
    // Optionally a refusal after validation (404, 409 capability_denied) is "the same response again" too.
    if (state.opts.replayRefusals && e instanceof ApiError) {
      state.keys.set(scope, {
        fingerprint,
        tenant: ctx.tenant ?? '',
        data: null,
        error: e,
        expiresAt: now + KEY_TTL_MS,
      });
    }
    throw e;
  }
  state.keys.set(scope, { fingerprint, tenant: ctx.tenant ?? '', data, expiresAt: now + KEY_TTL_MS });
  ok(ctx, data, false);
}
