// Idempotency keys: the pattern, the stored result of each key (scoped to client, tenant and key; only
// successes are kept, so a refused call may be sent again under its key), conflicts on other content, and
// generated keys with an expiry (POST /idempotency-keys).
import type { Reply } from './types.ts';
import { ApiError, canonical, nanoid, sha256Hex } from './util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

interface Stored {
  fingerprint: string;
  reply: Reply;
  expiresAt: number;
}

export class IdempotencyStore {
  private readonly results = new Map<string, Stored>();
  private readonly ttlMs: number;

  constructor(ttlSeconds: number) {
    this.ttlMs = ttlSeconds * 1000;
  }

  /** The Idempotency-Key header, checked against the pattern; 428 when required and missing. */
  static read(header: string | string[] | undefined, required: boolean): string | undefined {
    const key = Array.isArray(header) ? header[0] : header;
    if (key === undefined || key === '') {
      if (!required) return undefined;
      throw new ApiError(
        428,
        'idempotency_required',
        'An Idempotency-Key header is mandatory for this call.',
        'Send the header Idempotency-Key.',
      );
    }
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError(
        400,
        'invalid_request',
        'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$.',
        'Use 8 to 128 letters, digits, dot, underscore, colon or hyphen.',
      );
    }
    return key;
  }

  static fingerprint(method: string, path: string, body: unknown): string {
    return sha256Hex(`${method} ${path}\n${canonical(body ?? null)}`);
  }

  private scope(clientId: string, tenant: string, key: string): string {
    return `${clientId}\u0000${tenant}\u0000${key}`;
  }

  /** A stored reply for the same content, undefined when the key is new; 409 for other content. */
  lookup(clientId: string, tenant: string, key: string, fingerprint: string): Reply | undefined {
    const id = this.scope(clientId, tenant, key);
    const stored = this.results.get(id);
    if (!stored) return undefined;
    if (stored.expiresAt <= Date.now()) {
      this.results.delete(id);
      return undefined;
    }
    if (stored.fingerprint !== fingerprint) {
      throw new ApiError(
        409,
        'idempotency_conflict',
        'The idempotency key was used with different content.',
        'Use a new key for each new operation.',
      );
    }
    return stored.reply;
  }

  remember(clientId: string, tenant: string, key: string, fingerprint: string, reply: Reply): void {
    if (reply.status >= 300) return;
    // A snapshot: the record may change afterwards (a connection's state), the replayed answer must not.
    const frozen = JSON.parse(JSON.stringify(reply)) as Reply;
    this.results.set(this.scope(clientId, tenant, key), {
      fingerprint,
      reply: frozen,
      expiresAt: Date.now() + this.ttlMs,
    });
  }

  /** A fresh key for an operation, `idk_<operation>_<nanoid>` trimmed to the pattern. */
  generate(operation: string): { idempotencyKey: string; operation: string; expiresAt: string } {
    const slug = operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 80);
    const idempotencyKey = `idk_${slug}_${nanoid(21)}`.slice(0, 128);
    return { idempotencyKey, operation, expiresAt: new Date(Date.now() + this.ttlMs).toISOString() };
  }
}
