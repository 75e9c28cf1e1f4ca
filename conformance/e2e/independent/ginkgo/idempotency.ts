// Idempotency keys: scoped to client, tenant and key; the fingerprint is method, path and the canonical
// JSON body. A key is valid 24 h from its first use; a key issued by POST /idempotency-keys states
// issue + 24 h as expiresAt, and lapses then if it was never used. Only 200 answers are stored: a refusal
// is not an operation, so the same key may be sent again with a corrected body.
import { createHash, randomBytes } from 'node:crypto';
import { type Call, canonical, HttpError, meta, ok, parseJsonObject, sendJson } from './http-kit.ts';
import { KEY_PATTERN, validateBody } from './validation.ts';

export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

interface Stored {
  fingerprint: string;
  data: unknown;
  /** A stored refusal (only with storeRefusals), replayed as it was. */
  error?: HttpError;
  firstUsedAt: number;
}

export interface IdempotencyState {
  stored: Map<string, Stored>;
  issued: Map<string, { operation: string; expiresAt: number }>;
  /** Also store 400/404/409 refusals of the handler (Stripe-like; default: only 200 answers). */
  storeRefusals?: boolean;
}

function fingerprint(call: Call, text: string): string {
  let body: string = text;
  try {
    body = canonical(JSON.parse(text));
  } catch {
    // an unparsable body is fingerprinted as sent; validation refuses it anyway
  }
  return createHash('sha256').update(`${call.method} ${call.path}\n${body}`).digest('hex');
}

function sweep(state: IdempotencyState, now: number): void {
  for (const [k, v] of state.stored) if (now - v.firstUsedAt >= KEY_TTL_MS) state.stored.delete(k);
  for (const [k, v] of state.issued) if (v.expiresAt <= now) state.issued.delete(k);
}

/** Reads the Idempotency-Key header: 428 when missing, 400 when it does not match the pattern. */
export function requireKey(call: Call): string {
  const raw = call.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '')
    throw new HttpError(
      'idempotency_required',
      'Idempotency-Key header required',
      'header.idempotency-key: Field required',
      'send an Idempotency-Key (POST /api/public/v1/idempotency-keys issues one)',
    );
  if (!KEY_PATTERN.test(key)) {
    const msg = `header.idempotency-key: String should match pattern '${KEY_PATTERN.source}'`;
    throw new HttpError('invalid_request', msg, msg);
  }
  return key;
}

/** Runs a modifying handler under an idempotency key: replay, conflict or first execution. */
export async function idempotent(
  state: IdempotencyState,
  call: Call,
  text: string,
  run: () => Promise<unknown> | unknown,
): Promise<void> {
  const key = requireKey(call);
  call.idempotencyKey = key;
  const now = Date.now();
  sweep(state, now);
  const scope = `${call.clientId}|${call.tenant}|${key}`;
  const fp = fingerprint(call, text);
  const prior = state.stored.get(scope);
  if (prior) {
    if (prior.fingerprint !== fp)
      throw new HttpError(
        'idempotency_conflict',
        'Idempotency key reused with different content',
        `header.idempotency-key: '${key}' was first used for other content`,
        'use a new key for each new operation',
      );
    call.replayed = true;
    if (prior.error) throw prior.error;
    sendJson(call, 200, { ok: true, data: prior.data, meta: meta(call) });
    return;
  }
  let data: unknown;
  try {
    data = await run();
  } catch (err) {
    const refusal =
      err instanceof HttpError && ['invalid_request', 'not_found', 'capability_denied'].includes(err.code);
    if (state.storeRefusals && refusal)
      state.stored.set(scope, { fingerprint: fp, data: undefined, error: err, firstUsedAt: now });
    throw err;
  }
  state.issued.delete(key);
  state.stored.set(scope, { fingerprint: fp, data, firstUsedAt: now });
  ok(call, data);
}

/** POST /api/public/v1/idempotency-keys (an Idempotency-Key sent with it is honoured, not required). */
export function issueKey(state: IdempotencyState, call: Call, text: string): Promise<void> | void {
  const work = () => {
    const body = validateBody(parseJsonObject(text), {
      operation: { type: 'string', required: true, min: 2, max: 80 },
    });
    const idempotencyKey = `ik.${randomBytes(16).toString('hex')}`;
    const expiresAt = Date.now() + KEY_TTL_MS;
    state.issued.set(idempotencyKey, { operation: String(body.operation), expiresAt });
    return { idempotencyKey, operation: String(body.operation), expiresAt: new Date(expiresAt).toISOString() };
  };
  if (call.req.headers['idempotency-key'] !== undefined) return idempotent(state, call, text, work);
  ok(call, work());
}
