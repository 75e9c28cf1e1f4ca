// The Idempotent Consumer EIP's repository, shaped like camel-sql's JdbcMessageIdRepository: one row per
// (processorName = client|tenant, messageId = key), holding the fingerprint of the request and the stored reply.
// Only successful exchanges are confirmed into the table; a refused call may be retried under the same key.
import { createHash } from 'node:crypto';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

interface Row {
  processorName: string;
  messageId: string;
  fingerprint: string;
  reply: unknown;
  createdAt: number;
}

export type Lookup = { kind: 'new' } | { kind: 'replay'; reply: unknown } | { kind: 'conflict' };

export class JdbcIdempotentRepository {
  private readonly table = new Map<string, Row>();
  /** How long a confirmed row (and an issued key) is kept: the key's validity period. */
  readonly retentionMs: number;
  constructor(retentionMs: number) {
    this.retentionMs = retentionMs;
  }
  /** Keys issued by POST /idempotency-keys: key -> expiry millis. */
  readonly issued = new Map<string, { operation: string; expiresAt: number }>();

  static fingerprint(method: string, path: string, body: string): string {
    return createHash('sha256').update(`${method} ${path}\n${body}`).digest('hex');
  }

  lookup(processorName: string, messageId: string, fingerprint: string): Lookup {
    const id = `${processorName}\u0000${messageId}`;
    const row = this.table.get(id);
    if (!row) return { kind: 'new' };
    if (row.createdAt + this.retentionMs <= Date.now()) {
      // an expired key is a new key (the row is removed as camel-sql's housekeeping would)
      this.table.delete(id);
      return { kind: 'new' };
    }
    return row.fingerprint === fingerprint ? { kind: 'replay', reply: row.reply } : { kind: 'conflict' };
  }

  confirm(processorName: string, messageId: string, fingerprint: string, reply: unknown): void {
    this.table.set(`${processorName}\u0000${messageId}`, {
      processorName,
      messageId,
      fingerprint,
      reply,
      createdAt: Date.now(),
    });
  }

  /** Issues a key for an operation (POST /idempotency-keys): valid for the retention period. */
  issue(key: string, operation: string): number {
    const expiresAt = Date.now() + this.retentionMs;
    this.issued.set(key, { operation, expiresAt });
    return expiresAt;
  }

  /** Removes expired rows and issued keys (the housekeeping a JDBC repository's scheduled delete does). */
  purgeExpired(now: number = Date.now()): void {
    for (const [id, row] of this.table) if (row.createdAt + this.retentionMs <= now) this.table.delete(id);
    for (const [key, v] of this.issued) if (v.expiresAt <= now) this.issued.delete(key);
  }
}
