// Idempotency records per client, tenant and key (the key exactly as sent: case matters). The fingerprint
// is the method, the path and the canonical body; only successes are stored, so a refusal leaves nothing and
// the same key may be used again once the request is corrected.
import { canonical } from './http-kit.ts';

export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

interface Entry {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  private scope(clientId: string, tenant: string, key: string): string {
    return `${clientId}\u0000${tenant}\u0000${key}`;
  }

  static fingerprint(method: string, path: string, body: unknown): string {
    return `${method} ${path} ${canonical(body)}`;
  }

  /** 'replay' with the stored data, 'conflict', or 'fresh'. */
  lookup(
    clientId: string,
    tenant: string,
    key: string,
    fingerprint: string,
  ): { kind: 'replay'; data: unknown } | { kind: 'conflict' } | { kind: 'fresh' } {
    const e = this.entries.get(this.scope(clientId, tenant, key));
    if (e === undefined || e.expiresAt <= Date.now()) return { kind: 'fresh' };
    return e.fingerprint === fingerprint ? { kind: 'replay', data: e.data } : { kind: 'conflict' };
  }

  remember(clientId: string, tenant: string, key: string, fingerprint: string, data: unknown): void {
    this.entries.set(this.scope(clientId, tenant, key), { fingerprint, data, expiresAt: Date.now() + KEY_TTL_MS });
  }
}
