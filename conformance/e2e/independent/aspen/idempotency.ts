// Idempotency: keys are scoped to client + tenant, compared exactly (case matters, as the pattern does), and
// remember the first successful answer for 6 h after issue (or after first use for a key the client made up).
// Refusals are not stored: a refused call changed nothing, so its key stays free for the corrected call.
import { randomBytes } from 'node:crypto';
import { type Call, canonical, HttpError, sendError, sendOk } from './http-kit.ts';
import type { State } from './state.ts';
import { ulid } from './ulid.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** Refusals decided by the endpoint itself (after validation), replayable under `storeRefusals`. */
const STORED_REFUSALS = ['capability_denied', 'not_found'];

interface Stored {
  fingerprint: string;
  data: unknown;
  /** A business refusal stored under `storeRefusals` (the endpoint ran and decided). */
  refusal?: HttpError;
  expiresAt: number;
}
interface Issued {
  operation: string;
  expiresAt: number;
}
interface Stores {
  results: Map<string, Stored>;
  issued: Map<string, Issued>;
}
const stores = new WeakMap<State, Stores>();

function storesOf(state: State): Stores {
  let s = stores.get(state);
  if (s === undefined) {
    s = { results: new Map(), issued: new Map() };
    stores.set(state, s);
  }
  return s;
}

/** Reads and validates Idempotency-Key; `required` routes answer 428 without one. */
export function readKey(call: Call, required: boolean): string | undefined {
  const raw = call.req.headers['idempotency-key'];
  const key = typeof raw === 'string' ? raw : undefined;
  if (key === undefined || key === '') {
    if (!required) return undefined;
    throw new HttpError('idempotency_required', 'this call needs an Idempotency-Key header', {
      hint: 'generate one with POST /api/public/v1/idempotency-keys or send your own (^[A-Za-z0-9._:-]{8,128}$)',
    });
  }
  if (!KEY_PATTERN.test(key)) {
    throw new HttpError('invalid_request', 'Idempotency-Key is malformed', {
      detail: 'pattern ^[A-Za-z0-9._:-]{8,128}$',
    });
  }
  call.idempotencyKey = key;
  return key;
}

/**
 * Runs a modifying call once per key: a stored answer replays, other content under the key is a conflict.
 * The lookup comes before `run` validates, so a replay answers even after the resource moved on.
 */
export function once(state: State, call: Call, body: unknown, run: () => unknown): void {
  const key = call.idempotencyKey;
  if (key === undefined) {
    sendOk(call, run());
    return;
  }
  const s = storesOf(state);
  const now = Date.now();
  const scope = `${call.clientId}|${call.tenant}|${key}`;
  const fingerprint = `${call.req.method} ${call.url.pathname} ${canonical(body)}`;
  const stored = s.results.get(scope);
  if (stored !== undefined && stored.expiresAt > now) {
    if (stored.fingerprint !== fingerprint) {
      throw new HttpError('idempotency_conflict', 'this Idempotency-Key was used with different content', {
        hint: 'use a new key for each new operation',
      });
    }
    if (stored.refusal !== undefined) sendError(call, stored.refusal, true);
    else sendOk(call, stored.data, true);
    return;
  }
  const issued = s.issued.get(`${call.clientId}|${call.tenant}|${key}`);
  const expiresAt =
    issued !== undefined && issued.expiresAt > now ? issued.expiresAt : now + state.opts.idempotencyTtlMs;
  let data: unknown;
  try {
    data = run();
  } catch (err) {
    if (state.opts.storeRefusals && err instanceof HttpError && STORED_REFUSALS.includes(err.code)) {
      s.results.set(scope, { fingerprint, data: undefined, refusal: err, expiresAt });
    }
    throw err;
  }
  s.results.set(scope, { fingerprint, data, expiresAt });
  if (s.results.size > 50_000) for (const [k, v] of s.results) if (v.expiresAt <= now) s.results.delete(k);
  sendOk(call, data, false);
}

/** POST /idempotency-keys: issues a fresh key, valid 6 h from now. */
export function issueKey(state: State, call: Call, operation: string): Record<string, unknown> {
  const key = `ik.${ulid()}.${randomBytes(6).toString('hex')}`;
  const expiresAt = Date.now() + state.opts.idempotencyTtlMs;
  storesOf(state).issued.set(`${call.clientId}|${call.tenant}|${key}`, { operation, expiresAt });
  return { idempotencyKey: key, operation, expiresAt: new Date(expiresAt).toISOString() };
}
