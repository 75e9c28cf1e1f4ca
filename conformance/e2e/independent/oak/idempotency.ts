// Idempotency-Key handling, as the team's Laravel middleware does it: the key is checked against the pattern,
// a stored success is replayed for the same content (canonical JSON, so member order and spacing do not
// matter), different content is a conflict, and a key is valid one hour from its first use. Only successes
// are stored: a refused call leaves nothing behind, and its key may be used again.
import { createHash, randomUUID } from 'node:crypto';
import type { Call } from './http-kit.ts';
import { isoMicros, sendError, sendOk } from './http-kit.ts';
import type { State } from './state.ts';
import type { Body } from './validate.ts';
import { KEY_PATTERN, parseBody, validate } from './validate.ts';

export const KEY_TTL_MS = 60 * 60 * 1000;

/** Reads the key into call.idempotencyKey; answers 428 (missing, where required) or 400 (malformed). */
export function takeKey(call: Call, required: boolean): boolean {
  const key = call.req.headers['idempotency-key'];
  if (key === undefined) {
    if (!required) return true;
    sendError(
      call,
      'idempotency_required',
      'An Idempotency-Key header is required for this call.',
      'The header Idempotency-Key is missing.',
    );
    return false;
  }
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    sendError(
      call,
      'invalid_request',
      'The Idempotency-Key header is malformed.',
      'It must be 8 to 128 letters, digits, dots, underscores, colons or hyphens.',
      'Send a key matching ^[A-Za-z0-9._:-]{8,128}$, e.g. one from POST /api/public/v1/idempotency-keys.',
    );
    return false;
  }
  call.idempotencyKey = key;
  return true;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function scope(state: State, call: Call): string {
  const tenant = state.options.keyScope === 'client' ? '*' : (call.tenant ?? '');
  return `${call.clientId ?? ''}|${tenant}|${call.idempotencyKey ?? ''}`;
}

export function fingerprint(operation: string, body: Body | undefined): string {
  return createHash('sha256')
    .update(`${operation}\n${canonical(body ?? {})}`)
    .digest('hex');
}

/** Answers a replay or a conflict and returns true; false when the call is to be carried out. */
/** Keys scoped per client count the tenant as part of the content: another tenant's reuse is a conflict. */
function content(state: State, call: Call, print: string): string {
  return state.options.keyScope === 'client' ? `${call.tenant ?? ''}|${print}` : print;
}

export function replayOrConflict(state: State, call: Call, fingerprintOfCall: string): boolean {
  const print = content(state, call, fingerprintOfCall);
  if (call.idempotencyKey === undefined) return false;
  const stored = state.idempotency.get(scope(state, call));
  if (!stored) return false;
  if (stored.firstUsedMs + KEY_TTL_MS <= Date.now()) {
    state.idempotency.delete(scope(state, call));
    return false;
  }
  if (stored.fingerprint !== print) {
    sendError(
      call,
      'idempotency_conflict',
      'The Idempotency-Key was already used with different content.',
      'The key belongs to an earlier operation with another body or path.',
    );
    return true;
  }
  sendOk(call, stored.data, { replayed: true });
  return true;
}

/** Stores a success under the call's key (if it sent one) and answers it. */
export function answerAndStore(state: State, call: Call, print: string, data: unknown): void {
  if (call.idempotencyKey !== undefined) {
    state.idempotency.set(scope(state, call), {
      fingerprint: content(state, call, print),
      firstUsedMs: Date.now(),
      status: 200,
      data,
    });
  }
  sendOk(call, data);
}

/** POST /idempotency-keys: a fresh UUID key (Str::uuid()), valid one hour. */
export function issueKey(state: State, call: Call, raw: string | undefined): void {
  const body = parseBody(call, raw);
  if (
    !body ||
    !validate(
      call,
      body,
      { operation: { kind: 'string', min: 2, max: 80, required: true } },
      state.options.strictBodies,
    )
  )
    return;
  const print = fingerprint('POST /idempotency-keys', body);
  if (replayOrConflict(state, call, print)) return;
  const data = {
    idempotencyKey: randomUUID(),
    operation: body.operation,
    expiresAt: isoMicros(Date.now() + KEY_TTL_MS),
  };
  answerAndStore(state, call, print, data);
}
