// Idempotency keys: scoped to access (client) and tenant, valid 24 h from issue (POST /idempotency-keys) or
// from first use. A stored success replays with its original status and data; other content is a conflict.
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, type Call, header, jsonBody, meta, ok, sendJson } from './http.ts';
import type { Handler } from './routes.ts';
import type { State } from './state.ts';
import { KEY_PATTERN, text } from './validate.ts';

export const KEY_LIFETIME_MS = 24 * 3600 * 1000;

/** The Idempotency-Key of a "yes + key" endpoint: 428 when missing, 400 off the pattern. */
export function requireKey(call: Call): string {
  const key = header(call.req, 'idempotency-key');
  if (key === undefined || key === '') {
    throw new ApiError('idempotency_required', 'Header Idempotency-Key is required', undefined, 'send the key');
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'Header Idempotency-Key is invalid',
      'it must be 8 to 128 letters, digits, dots, underscores, colons or hyphens',
    );
  }
  call.idempotencyKey = key;
  return key;
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, canonical(o[k])]),
    );
  }
  return v;
}

/** Method, path and the body with sorted keys: what "the same content" means. */
export function fingerprint(call: Call, body: unknown): string {
  const basis = JSON.stringify([call.req.method, call.url.pathname, canonical(body)]);
  return createHash('sha256').update(basis).digest('hex');
}

function storeKey(call: Call): string {
  return `${call.clientId}|${call.tenant}|${call.idempotencyKey}`;
}

/**
 * Runs a modifying action once per key: a replay answers the stored response (own requestId,
 * meta.replayed), other content 409. Only successes are stored, so a refused call can be corrected.
 * The action must stay synchronous: no other call can interleave between lookup and store.
 */
export function once(state: State, call: Call, body: unknown, action: () => unknown): void {
  const id = storeKey(call);
  const print = fingerprint(call, body);
  const stored = state.idempotency.get(id);
  if (stored && stored.expiresAt > Date.now()) {
    if (stored.fingerprint !== print) {
      throw new ApiError(
        'idempotency_conflict',
        'Idempotency-Key was already used with different content',
        undefined,
        'use a new key for each new operation',
      );
    }
    sendJson(call, stored.status, {
      ...stored.body,
      meta: meta(call, { idempotencyKey: call.idempotencyKey, replayed: true }),
    });
    return;
  }
  const data = action();
  const issued = state.issuedKeys.get(`${call.clientId}|${call.tenant}|${call.idempotencyKey}`);
  const expiresAt = issued?.expiresAt ?? Date.now() + KEY_LIFETIME_MS;
  state.idempotency.set(id, { fingerprint: print, status: 200, body: { ok: true, data }, expiresAt });
  ok(call, data, { idempotencyKey: call.idempotencyKey, replayed: false });
}

/** POST /idempotency-keys: a fresh key bound to an operation name, valid 24 h from now. */
export function issueKey(state: State, call: Call, body: Record<string, unknown>): void {
  const operation = text(body, 'operation', 2, 80);
  const key = `idk_${randomBytes(16).toString('hex')}`;
  const expiresAt = Date.now() + KEY_LIFETIME_MS;
  state.issuedKeys.set(`${call.clientId}|${call.tenant}|${key}`, { operation, expiresAt });
  ok(call, {
    idempotencyKey: key,
    operation,
    expiresAt: new Date(expiresAt).toISOString(),
    created_at: new Date().toISOString(),
  });
}

/** A modifying endpoint: key (428/400), JSON body, validation, then the action once per key. */
export function keyed(
  validate: (b: Record<string, unknown>) => unknown,
  act: (s: State, c: Call, v: never, p: string[]) => unknown,
): Handler {
  return async (state, call, params) => {
    requireKey(call);
    const body = await jsonBody(call);
    const valid = validate(body) as never;
    once(state, call, body, () => act(state, call, valid, params));
  };
}

/** A keyed action on a resource named in the path (an empty JSON body or none at all). */
export function keyedNoBody(act: (s: State, c: Call, p: string[]) => unknown): Handler {
  return (state, call, params) => {
    requireKey(call);
    call.req.resume();
    once(state, call, {}, () => act(state, call, params));
  };
}
