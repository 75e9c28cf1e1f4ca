// Idempotency records: per client, tenant and key (compared as the exact string), valid 1 h from the
// first use. The fingerprint is method, path and the canonical JSON of the body (keys sorted), so
// the same content written anew replays. Only successes are stored: a refusal leaves nothing behind.
import { createHash } from 'node:crypto';

export const KEY_TTL_MS = 3_600_000;

interface Entry {
  fingerprint: string;
  data: unknown;
  expires: number;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export class IdempotencyStore {
  entries = new Map<string, Entry>();

  fingerprint(method: string, path: string, body: unknown) {
    return createHash('sha256')
      .update(`${method} ${path} ${canonical(body)}`)
      .digest('hex');
  }

  /** 'new', 'conflict' or the stored data (a replay). */
  lookup(
    scope: string,
    key: string,
    fp: string,
  ): { kind: 'new' } | { kind: 'conflict' } | { kind: 'replay'; data: unknown } {
    const e = this.entries.get(`${scope}\u0000${key}`);
    if (!e || e.expires < Date.now()) return { kind: 'new' };
    if (e.fingerprint !== fp) return { kind: 'conflict' };
    return { kind: 'replay', data: structuredClone(e.data) };
  }

  store(scope: string, key: string, fp: string, data: unknown) {
    this.entries.set(`${scope}\u0000${key}`, {
      fingerprint: fp,
      data: structuredClone(data),
      expires: Date.now() + KEY_TTL_MS,
    });
  }
}
