// totara: the team's idempotency plugin (a preValidation hook in Fastify): keys scoped to client, tenant and key;
// the fingerprint is method, route and key-sorted JSON body; only answered successes are stored (a refused call may
// be sent again under its key); generated keys `idk_<cuid>` carry an expiry.
import { HttpError, KEY_PATTERN, type Principal, type Settings } from './types.ts';
import { cuid, sha256, sortedJson } from './util.ts';

interface Stored {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export interface Issued {
  idempotencyKey: string;
  operation: string;
  expiresAt: string;
  createdAt: string;
}

export class Idempotency {
  private readonly stored = new Map<string, Stored>();
  private readonly issued = new Map<string, Issued & { tenant: string; clientId: string }>();

  private readonly settings: Settings;

  constructor(settings: Settings) {
    this.settings = settings;
  }

  private ttlMs(): number {
    return this.settings.idempotencyTtlHours * 3_600_000;
  }

  /** The key header checked against the pattern; missing on a route that needs it: 428. */
  check(raw: string | undefined, required: boolean): string | undefined {
    if (raw === undefined || raw === '') {
      if (required)
        throw new HttpError(
          428,
          'idempotency_required',
          "headers must have required property 'idempotency-key'",
          'FST_IDEMPOTENCY_REQUIRED',
        );
      return undefined;
    }
    if (!KEY_PATTERN.test(raw))
      throw new HttpError(
        400,
        'invalid_request',
        'headers/idempotency-key must match pattern "^[A-Za-z0-9._:-]{8,128}$"',
        'FST_ERR_VALIDATION',
      );
    return raw;
  }

  fingerprint(method: string, route: string, body: unknown): string {
    return sha256(`${method} ${route}\n${sortedJson(body ?? null)}`);
  }

  private scope(p: Principal, key: string): string {
    return `${p.clientId}|${p.tenant}|${key}`;
  }

  /** A stored answer for the same content, a 409 for other content, or undefined (run the handler). */
  lookup(p: Principal, key: string, fingerprint: string): Stored | undefined {
    const hit = this.stored.get(this.scope(p, key));
    if (!hit || hit.expiresAt <= Date.now()) return undefined;
    if (hit.fingerprint !== fingerprint)
      throw new HttpError(
        409,
        'idempotency_conflict',
        'Idempotency-Key was already used with a different request',
        'FST_IDEMPOTENCY_CONFLICT',
      );
    return hit;
  }

  save(p: Principal, key: string, fingerprint: string, status: number, data: unknown): void {
    this.stored.set(this.scope(p, key), { fingerprint, status, data, expiresAt: Date.now() + this.ttlMs() });
  }

  /** POST /idempotency-keys: a fresh key for an operation, valid idempotencyTtlHours. */
  issue(p: Principal, operation: string): Issued {
    const createdAt = new Date();
    const result: Issued = {
      idempotencyKey: `idk_${cuid()}`,
      operation,
      expiresAt: new Date(createdAt.getTime() + this.ttlMs()).toISOString(),
      createdAt: createdAt.toISOString(),
    };
    this.issued.set(result.idempotencyKey, { ...result, tenant: p.tenant, clientId: p.clientId });
    return result;
  }

  /** Drops expired answers and keys. */
  sweep(): void {
    const t = Date.now();
    for (const [k, v] of this.stored) if (v.expiresAt <= t) this.stored.delete(k);
    for (const [k, v] of this.issued) if (Date.parse(v.expiresAt) <= t) this.issued.delete(k);
  }
}
