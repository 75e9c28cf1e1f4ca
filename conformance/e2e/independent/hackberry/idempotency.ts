// Idempotency records, one row per (tenant, route, key) as the team's `idempotency_records` table: the
// request's fingerprint and the answer. Only successes are kept; a refused call may be retried with its key.
import { createHash, randomBytes } from 'node:crypto';
import type { Principal } from './auth.ts';
import { type Call, Failure, meta, type Rec, sendJson } from './http.ts';

const KEY = /^[A-Za-z0-9._:-]{8,128}$/;
const TTL_MS = 24 * 3600 * 1000;

interface Row {
  fingerprint: string;
  data: Rec;
  expiresAt: number;
}

const rows = new WeakMap<object, Map<string, Row>>();

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Rec;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export function requireKey(call: Call): string {
  const key = call.headers['idempotency-key'];
  if (key === undefined || key === '') {
    throw new Failure('idempotency_required', 'header Idempotency-Key is required for this call');
  }
  if (!KEY.test(key)) {
    throw new Failure('invalid_request', 'malformed Idempotency-Key', { hint: 'pattern ^[A-Za-z0-9._:-]{8,128}$' });
  }
  return key;
}

/**
 * Runs `produce` once per key and fingerprint; the same key and content answers the stored data again
 * (meta.replayed true), the same key with other content is idempotency_conflict. `produce` is synchronous
 * after the body was read, so concurrent same-key calls cannot both run it.
 */
export function idempotent(store: object, call: Call, who: Principal, key: string, body: Rec, produce: () => Rec) {
  let table = rows.get(store);
  if (!table) {
    table = new Map();
    rows.set(store, table);
  }
  const id = `${who.tenant}|${call.req.method} ${call.path}|${key}`;
  const fingerprint = createHash('sha256').update(canonical(body)).digest('hex');
  const row = table.get(id);
  if (row && row.expiresAt > Date.now()) {
    if (row.fingerprint !== fingerprint) {
      throw new Failure('idempotency_conflict', 'Idempotency-Key was already used with different content', {
        hint: 'use a new key for each new operation',
      });
    }
    sendJson(call, 200, { ok: true, data: row.data, meta: meta(call, { idempotencyKey: key, replayed: true }) });
    return;
  }
  const data = produce();
  table.set(id, { fingerprint, data, expiresAt: Date.now() + TTL_MS });
  sendJson(call, 200, { ok: true, data, meta: meta(call, { idempotencyKey: key, replayed: false }) });
}

/** POST /idempotency-keys: a fresh key for an operation, valid 24 hours. */
export function issueKey(body: Rec): Rec {
  const op = body.operation;
  if (typeof op !== 'string' || op.length < 2 || op.length > 80) {
    throw new Failure('invalid_request', 'operation: expected a string of length 2 to 80');
  }
  const extra = Object.keys(body).filter((k) => k !== 'operation');
  if (extra.length > 0) throw new Failure('invalid_request', `unknown field: ${extra[0]}`);
  return {
    idempotencyKey: `hbk_${randomBytes(16).toString('hex')}`,
    operation: op,
    expiresAt: new Date(Date.now() + TTL_MS).toISOString(),
  };
}
