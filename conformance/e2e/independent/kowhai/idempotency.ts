// Idempotency keys (an `idempotency_keys` table): scoped to client, tenant and key; the content is the method,
// the route and the key-sorted JSON body; only successful answers are kept (a refused call may be retried under
// the same key); POST /idempotency-keys issues UUID keys valid for `idempotencyTtlHours`.
import { createHash, randomUUID } from 'node:crypto';
import { HttpError } from './http.ts';
import type { Answer, Ctx } from './types.ts';
import { check, str } from './validate.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

interface Stored {
  fingerprint: string;
  replayData: unknown;
  expiresAt: number;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export class IdempotencyStore {
  private readonly stored = new Map<string, Stored>();
  private readonly ttlMs: number;
  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  /** Reads the Idempotency-Key header: 428 when required and missing, 400 when off the pattern. */
  key(ctx: Ctx, required: boolean): string | undefined {
    const raw = ctx.req.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined || key === '') {
      if (required)
        throw new HttpError(
          428,
          'idempotency_required',
          'An Idempotency-Key header is required for this call.',
          undefined,
          'Send the header Idempotency-Key.',
        );
      return undefined;
    }
    if (!KEY_PATTERN.test(key))
      throw new HttpError(
        400,
        'invalid_request',
        'Idempotency-Key does not match the pattern.',
        `headers.Idempotency-Key: ${KEY_PATTERN.source}`,
      );
    return key;
  }

  private scope(ctx: Ctx, key: string) {
    return `${ctx.clientId}\u0000${ctx.tenant}\u0000${key}`;
  }

  private fingerprint(ctx: Ctx, route: string) {
    return createHash('sha256')
      .update(`${ctx.method} ${route} ${canonical(ctx.body ?? null)}`)
      .digest('hex');
  }

  /** The earlier answer under this key (replay), a 409 for other content, or undefined for a first call. */
  lookup(ctx: Ctx, route: string, key: string): { data: unknown } | undefined {
    const found = this.stored.get(this.scope(ctx, key));
    if (!found || found.expiresAt <= Date.now()) return undefined;
    if (found.fingerprint !== this.fingerprint(ctx, route))
      throw new HttpError(
        409,
        'idempotency_conflict',
        'The idempotency key was used with different content.',
        undefined,
        'Use a new key for each new operation.',
      );
    return { data: found.replayData };
  }

  save(ctx: Ctx, route: string, key: string, answer: Answer): void {
    this.stored.set(this.scope(ctx, key), {
      fingerprint: this.fingerprint(ctx, route),
      replayData: answer.replayData ?? answer.data,
      expiresAt: Date.now() + this.ttlMs,
    });
  }

  /** POST /idempotency-keys. */
  issue(ctx: Ctx): Answer {
    const body = check(ctx.body, 'body', [str('operation', 2, 80)]);
    const expiresAt = new Date(Date.now() + this.ttlMs).toISOString();
    return { data: { idempotencyKey: randomUUID(), operation: body.operation, expiresAt } };
  }
}
