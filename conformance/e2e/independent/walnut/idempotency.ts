// Idempotency records, keyed by client, tenant and the key exactly as sent (case-sensitive). The request
// fingerprint is the method, the normalised path (trailing slash dropped) and the canonical JSON body.
// Only successful answers are recorded: a refused call leaves the key free for the corrected request.
import { randomBytes } from 'node:crypto';
import { type Clock, type Ctx, canonicalJson, fail, sendOk } from './core.ts';

const TTL_MS = 24 * 3600 * 1000;

interface IdemRecord {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export class IdempotencyStore {
  records = new Map<string, IdemRecord>();
  time: Clock;

  constructor(time: Clock) {
    this.time = time;
  }

  /**
   * Answers a replay or a conflict, or runs `perform` (synchronously, so two same-key calls can never both
   * perform) and records its data. Without a key (only for "yes" endpoints) it just performs.
   */
  run(ctx: Ctx, body: unknown, perform: () => unknown, onReplay?: (data: unknown) => unknown): void {
    const key = ctx.idempotencyKey;
    if (key === undefined) {
      sendOk(ctx, perform());
      return;
    }
    const id = `${ctx.clientId}|${ctx.tenant}|${key}`;
    const fingerprint = `${ctx.req.method} ${ctx.path} ${canonicalJson(body)}`;
    const now = Date.now();
    const found = this.records.get(id);
    if (found && found.expiresAt > now) {
      if (found.fingerprint !== fingerprint) {
        fail('idempotency_conflict', 'This Idempotency-Key was used earlier with a different request.');
      }
      sendOk(ctx, onReplay ? onReplay(found.data) : found.data, { idempotencyKey: key, replayed: true });
      return;
    }
    const data = perform();
    this.records.set(id, { fingerprint, data, expiresAt: now + TTL_MS });
    sendOk(ctx, data, { idempotencyKey: key });
  }

  /** A fresh key for POST /idempotency-keys (a UUID4 hex with an operation prefix, within the pattern). */
  issue(operation: string) {
    const slug = operation.replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 40);
    const idempotencyKey = `${slug}:${randomBytes(16).toString('hex')}`;
    return { idempotencyKey, operation, expiresAt: this.time(Date.now() + TTL_MS), ttl_seconds: TTL_MS / 1000 };
  }
}
