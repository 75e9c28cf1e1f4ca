// Idempotency as an interceptor in front of every modifying RPC: the key is checked before the body, a
// record is bound to (access, tenant, key) and a fingerprint of method, route and canonical body.
import type { Principal } from './auth.ts';
import { type Call, canonical, fail, ok } from './http.ts';
import type { IdemRecord, State } from './state.ts';
import { KEY_PATTERN } from './validate.ts';

/** The header's key, or undefined after answering 428/400 itself. */
export function requireKey(call: Call): string | undefined {
  const key = call.req.headers['idempotency-key'];
  if (key === undefined || key === '') {
    fail(call, 'idempotency_required', 'an Idempotency-Key header is mandatory for this call', {
      hint: 'send a fresh key (POST /api/public/v1/idempotency-keys issues one)',
    });
    return undefined;
  }
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    fail(call, 'invalid_request', 'the Idempotency-Key header does not match ^[A-Za-z0-9._:-]{8,128}$', {
      violations: [{ field: 'Idempotency-Key', description: 'must match ^[A-Za-z0-9._:-]{8,128}$' }],
    });
    return undefined;
  }
  call.idempotencyKey = key;
  return key;
}

export interface Idem {
  slot: string;
  fingerprint: string;
}

/**
 * Looks the key up: answers a replay or a conflict itself (returns undefined), or hands back the slot to
 * store the fresh answer in. Synchronous from lookup to store, so concurrent copies cannot both run.
 */
export function lookup(
  state: State,
  call: Call,
  who: Principal,
  key: string,
  route: string,
  body: unknown,
): Idem | undefined {
  const slot = `${who.clientId}|${who.tenant}|${key}`;
  const fingerprint = `${call.req.method} ${route} ${canonical(body)}`;
  const rec = state.idem.get(slot);
  if (!rec) return { slot, fingerprint };
  if (rec.fingerprint !== fingerprint) {
    fail(call, 'idempotency_conflict', 'this Idempotency-Key was used for a different request', {
      hint: 'use a new key for each new operation',
    });
    return undefined;
  }
  ok(call, rec.replayData ?? rec.data, { idempotencyKey: key, replayed: true });
  return undefined;
}

export function store(state: State, idem: Idem, data: unknown, replayData?: unknown): void {
  const rec: IdemRecord = { fingerprint: idem.fingerprint, status: 200, data };
  if (replayData !== undefined) rec.replayData = replayData;
  state.idem.set(idem.slot, rec);
}
