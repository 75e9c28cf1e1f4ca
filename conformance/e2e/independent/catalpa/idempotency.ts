// Idempotency as the contract states it: per access, tenant and key (the key is the exact string sent, case
// and all); the fingerprint is method, path and the canonical body; a replay repeats the original status and
// data with meta.replayed true. Only successes are stored: a refusal leaves the key unused. Records and
// issued keys expire 12 h after issue.
import { ApiError, type Ctx, header, ok } from './http.ts';
import type { State } from './store.ts';
import { KEY_PATTERN } from './validate.ts';

export const KEY_TTL_MS = 12 * 60 * 60 * 1000;

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

/** Reads and checks the Idempotency-Key header: missing is undefined, malformed is a 400. */
export function readKey(ctx: Ctx): string | undefined {
  const key = header(ctx, 'idempotency-key');
  if (key === undefined) return undefined;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'Header Idempotency-Key does not match ^[A-Za-z0-9._:-]{8,128}$.',
      'Send 8 to 128 letters, digits, dots, underscores, colons or hyphens.',
    );
  }
  return key;
}

/**
 * Runs a modifying operation once per key. `required` makes a missing key a 428; `run` is synchronous so
 * copies of one key sent at once cannot both pass the lookup.
 */
export function idempotent(
  state: State,
  ctx: Ctx,
  required: boolean,
  body: unknown,
  run: () => unknown,
  operation?: string,
): void {
  const key = readKey(ctx);
  if (key === undefined) {
    if (required)
      throw new ApiError(
        'idempotency_required',
        'Header Idempotency-Key is missing.',
        'Send an Idempotency-Key, e.g. one issued by POST /api/public/v1/idempotency-keys.',
      );
    ok(ctx, run());
    return;
  }
  const issued = state.issuedKeys.get(key);
  if (issued && state.options.bindIssuedKeys && operation !== undefined && issued.operation !== operation) {
    throw new ApiError(
      'idempotency_conflict',
      `The key was issued for operation ${issued.operation}, not ${operation}.`,
      `Issue a key with operation ${operation}.`,
    );
  }
  if (issued && Date.parse(issued.expiresAt) <= Date.now()) {
    throw new ApiError(
      'invalid_request',
      'The idempotency key has expired.',
      'Request a new key; keys are valid for 12 hours after issue.',
    );
  }
  const scope = `${ctx.clientId}|${ctx.tenant}|${key}`;
  const fingerprint = `${ctx.req.method} ${ctx.url.pathname} ${canonical(body)}`;
  const found = state.idem.get(scope);
  if (found && found.expiresAt <= Date.now()) state.idem.delete(scope);
  const record = state.idem.get(scope);
  if (record) {
    if (record.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'The key was already used for a different request.',
        'Use a new key for each new operation.',
      );
    }
    ok(ctx, record.data, { idempotencyKey: key, replayed: true });
    return;
  }
  const data = run();
  state.idem.set(scope, { fingerprint, status: 200, data, expiresAt: Date.now() + KEY_TTL_MS });
  ok(ctx, data, { idempotencyKey: key, replayed: false });
}
