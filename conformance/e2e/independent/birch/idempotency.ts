// Idempotency store: one record per (tenant, client, key). Only successful answers are kept, for 24 hours;
// a failed call leaves the key free. A key still in flight counts as a conflict.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { HttpError, invalid } from './http-util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

type Entry = { fingerprint: string; data: unknown | undefined; storedAt: number };

export class IdempotencyStore {
  entries = new Map<string, Entry>();
  issued = new Map<string, { operation: string; expiresAt: number }>();

  issue(operation: string): { idempotencyKey: string; operation: string; expiresAt: string } {
    const key = `idem_${randomBytes(16).toString('hex')}`;
    const expiresAt = Date.now() + KEY_TTL_MS;
    this.issued.set(key, { operation, expiresAt });
    return { idempotencyKey: key, operation, expiresAt: new Date(expiresAt).toISOString() };
  }

  // Reads and validates the header; a missing key is 428 idempotency_required.
  static keyOf(req: IncomingMessage): string {
    const raw = req.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined || key === '') {
      throw new HttpError(428, 'idempotency_required', 'An idempotency key is mandatory for this call.', {
        hint: 'Send the header Idempotency-Key.',
      });
    }
    if (!KEY_PATTERN.test(key))
      throw invalid('The Idempotency-Key header is malformed.', 'pattern ^[A-Za-z0-9._:-]{8,128}$');
    return key;
  }

  // Runs op once per key and content. Returns the data and whether it was replayed.
  async run(
    scope: string,
    key: string,
    fingerprintSource: string,
    op: () => Promise<unknown>,
  ): Promise<{ data: unknown; replayed: boolean }> {
    const id = `${scope}|${key}`;
    const fingerprint = createHash('sha256').update(fingerprintSource).digest('hex');
    const now = Date.now();
    const found = this.entries.get(id);
    if (found && now - found.storedAt < KEY_TTL_MS) {
      if (found.fingerprint !== fingerprint) {
        throw new HttpError(409, 'idempotency_conflict', 'This idempotency key was used with different content.', {
          hint: 'Use a new key for each new operation.',
        });
      }
      if (found.data === undefined) {
        throw new HttpError(409, 'idempotency_conflict', 'A call with this idempotency key is still in progress.', {
          hint: 'Wait for the first call to finish.',
        });
      }
      return { data: found.data, replayed: true };
    }
    const entry: Entry = { fingerprint, data: undefined, storedAt: now };
    this.entries.set(id, entry);
    try {
      const data = await op();
      entry.data = data;
      entry.storedAt = Date.now();
      return { data, replayed: false };
    } catch (err) {
      this.entries.delete(id);
      throw err;
    }
  }
}
