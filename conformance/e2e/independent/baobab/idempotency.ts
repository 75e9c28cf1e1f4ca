// Idempotency: a record per tenant and key (the key exactly as sent: letter case counts), fingerprinted by
// method, path and the canonical body. Only a 200 is recorded; a refusal leaves the key unused.
// A key stays valid 24 h after its FIRST use; a key issued by POST /idempotency-keys promises issue + 24 h
// until it is first used, and then its expiry moves to first use + 24 h.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError, type CallContext } from './http-util.ts';
import type { IdemRecord, State } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

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

export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonical(body)}`)
    .digest('hex');
}

/** Reads the header: 428 when required and missing, 400 when it breaks the pattern. */
export function readKey(req: IncomingMessage, mode: 'required' | 'optional'): string | undefined {
  const raw = req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    if (mode === 'required') {
      throw new ApiError(
        'idempotency_required',
        'An idempotency key is mandatory for this call',
        'header.idempotency-key: Field required',
        'send the Idempotency-Key header',
      );
    }
    return undefined;
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'Request validation failed',
      `header.idempotency-key: String should match pattern '${KEY_PATTERN.source}'`,
    );
  }
  return key;
}

/** An earlier identical operation's data (replay), 409 for other content, or undefined: go ahead. */
export function lookup(
  state: State,
  tenant: string,
  key: string,
  fp: string,
  ctx: CallContext,
): IdemRecord | undefined {
  const id = `${tenant}\n${key}`;
  const rec = state.idem.get(id);
  if (rec && rec.expiresAt <= Date.now()) {
    state.idem.delete(id);
    return undefined;
  }
  if (!rec) return undefined;
  if (rec.fingerprint !== fp) {
    ctx.replayed = false;
    throw new ApiError(
      'idempotency_conflict',
      'Idempotency key was used with different content',
      undefined,
      'use a new key for each new operation',
    );
  }
  return rec;
}

export function remember(state: State, tenant: string, key: string, fp: string, data: unknown): void {
  const now = Date.now();
  const ttl = state.opts.keyTtlMs;
  state.idem.set(`${tenant}\n${key}`, { fingerprint: fp, data, firstUsedAt: now, expiresAt: now + ttl });
  const issued = state.issuedKeys.get(`${tenant}\n${key}`);
  if (issued && issued.expiresAt !== now + ttl) issued.expiresAt = now + ttl;
}
