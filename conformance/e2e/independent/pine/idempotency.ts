// The idempotency plug: keys are scoped to access + tenant, compared whole and case-sensitively, and bound
// to route + content (a fingerprint over the route template and the body as sorted-key JSON, so member
// order and spacing do not matter). Valid 48 h from issue (POST /idempotency-keys) or from first use.
// Only successes are stored: a refused call leaves its key free.
import { randomUUID } from 'node:crypto';
import type { Answer, Ctx } from './http-kit.ts';
import { halt, isoUsec, ok, sortedJson } from './http-kit.ts';
import type { PineState } from './state.ts';
import { Changeset } from './validate.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_VALIDITY_MS = 48 * 3600 * 1000;

/** Reads Idempotency-Key: absent is undefined, present must fit the pattern (400 otherwise). */
export function readKey(ctx: Ctx): string | undefined {
  const v = ctx.req.headers['idempotency-key'];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !KEY_PATTERN.test(v)) {
    halt(
      'invalid_request',
      'Idempotency-Key does not fit the pattern',
      'idempotency-key: 8 to 128 of A-Z a-z 0-9 . _ : -',
      'Generate a key with POST /api/public/v1/idempotency-keys.',
    );
  }
  return v;
}

function scoped(ctx: Ctx, key: string): string {
  return `${ctx.clientId}|${ctx.tenant}|${key}`;
}

function fingerprint(ctx: Ctx, route: string): string {
  return `${ctx.req.method} ${route} ${sortedJson(ctx.body ?? {})}`;
}

/**
 * Before the controller: 428 when a key is required and missing; a replay of the stored answer; 409 when
 * the key was used with other content or on another route. Returns the replay, or undefined to go on.
 */
export function checkKey(ctx: Ctx, state: PineState, route: string, required: boolean): Answer | undefined {
  const key = readKey(ctx);
  if (key === undefined) {
    if (required) {
      halt(
        'idempotency_required',
        'An Idempotency-Key header is required for this call',
        'idempotency-key: missing',
        'Send a new key for each new operation.',
      );
    }
    return undefined;
  }
  ctx.idemKey = key;
  const stored = state.idempotency.get(scoped(ctx, key));
  if (stored === undefined || stored.expiresAt <= Date.now()) return undefined;
  if (stored.fingerprint !== fingerprint(ctx, route)) {
    halt(
      'idempotency_conflict',
      'This Idempotency-Key was used with other content or on another route',
      undefined,
      'Use a new key for each new operation.',
    );
  }
  return { status: stored.status, data: structuredClone(stored.data), replayed: true };
}

/** After the controller: a success is stored under the key until the key expires. */
export function storeAnswer(ctx: Ctx, state: PineState, route: string, answer: Answer): void {
  if (ctx.idemKey === undefined || answer.status !== 200) return;
  const k = scoped(ctx, ctx.idemKey);
  const expiresAt = state.issuedKeys.get(k) ?? Date.now() + KEY_VALIDITY_MS;
  state.idempotency.set(k, {
    fingerprint: fingerprint(ctx, route),
    status: answer.status,
    data: structuredClone(answer.data),
    expiresAt,
  });
}

/** Registers a key this service issued, so its 48 h count from the issue. */
export function issueKey(ctx: Ctx, state: PineState, key: string): number {
  const expiresAt = Date.now() + KEY_VALIDITY_MS;
  state.issuedKeys.set(scoped(ctx, key), expiresAt);
  return expiresAt;
}

/** POST /idempotency-keys: a new key, valid 48 h from now. */
export function issueKeyAnswer(ctx: Ctx, state: PineState): Answer {
  const cs = new Changeset(ctx.body);
  const operation = cs.text('operation', 2, 80);
  cs.check();
  const key = `pine_${randomUUID().replaceAll('-', '')}`;
  const expiresAt = issueKey(ctx, state, key);
  return ok({ idempotencyKey: key, operation, expiresAt: isoUsec(expiresAt) });
}
