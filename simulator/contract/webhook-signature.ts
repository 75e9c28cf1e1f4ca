import { createHmac, timingSafeEqual } from 'node:crypto';
import { LIMITS } from './limits.ts';
import { WEBHOOK_DEFAULTS } from './simulator-defaults.ts';

/**
 * Name of the header the simulator puts the signature in. The interface does not name it; this is the
 * simulator's choice (configurable per dispatcher: `createDispatcher({ signatureHeader })`).
 */
export const DEFAULT_SIGNATURE_HEADER: string = WEBHOOK_DEFAULTS.signatureHeader;

export type WebhookBody = string | Uint8Array;

export type VerifyFailureReason = 'malformed' | 'stale' | 'future' | 'mismatch';
export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: VerifyFailureReason };

export interface VerifyOptions {
  /** Largest accepted |now - t| in seconds (default 300, the interface's window). */
  toleranceSeconds?: number;
  /** Current time in unix seconds (default: Date.now() / 1000). */
  now?: number;
}

function digest(rawBody: WebhookBody, secret: string, t: number): Buffer {
  const mac = createHmac('sha256', secret).update(`${t}.`);
  return (typeof rawBody === 'string' ? mac.update(rawBody, 'utf8') : mac.update(rawBody)).digest();
}

function checkSecret(secret: string) {
  if (typeof secret !== 'string' || secret.length === 0)
    throw new TypeError('the signing secret must be a non-empty string');
}

/**
 * The signature header value for a raw body: `t=<t>,v1=<lowercase hex HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Sign the exact bytes you send; re-serialising JSON changes them.
 * @example signWebhook('{"id":"evt_1"}', 'whsec_test', 1767225600) // 't=1767225600,v1=5c0e…'
 */
export function signWebhook(rawBody: WebhookBody, secret: string, t: number): string {
  checkSecret(secret);
  if (!Number.isSafeInteger(t) || t < 0)
    throw new RangeError(`t must be a non-negative integer of unix seconds, not ${t}`);
  return `t=${t},v1=${digest(rawBody, secret, t).toString('hex')}`;
}

/**
 * Splits a header into its timestamp and v1 signatures. Parts are comma-separated `key=value` pairs,
 * whitespace around them is ignored, unknown keys (e.g. `v0`) are skipped. Undefined when there is not
 * exactly one `t` of digits, a part has no `=`, or no `v1` value is 64 hex digits.
 * @example parseSignatureHeader('t=1, v1=ab…') // { t: 1, v1: ['ab…'] }
 */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | undefined {
  if (typeof header !== 'string' || header.length > 4096) return undefined;
  let t: number | undefined;
  const v1: string[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^\d{1,15}$/.test(value)) return undefined;
      t = Number(value);
    } else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) {
      v1.push(value.toLowerCase());
    }
  }
  return t === undefined || v1.length === 0 ? undefined : { t, v1 };
}

/**
 * Checks a delivery: the header must parse, one of its v1 values must equal the HMAC of the raw body
 * (compared in constant time), and |now - t| must not exceed the tolerance. The signature is checked
 * before the time, so `stale`/`future` are only reported for genuine signatures.
 * @example verifyWebhook(rawBody, req.headers['ncs-signature'], secret) // { ok: true, timestamp: 1767225600 }
 */
export function verifyWebhook(
  rawBody: WebhookBody,
  header: string | undefined | null,
  secret: string,
  opts: VerifyOptions = {},
): VerifyResult {
  checkSecret(secret);
  const tolerance = opts.toleranceSeconds ?? LIMITS.webhookToleranceSeconds;
  if (!Number.isFinite(tolerance) || tolerance < 0)
    throw new RangeError(`toleranceSeconds must be a non-negative number, not ${tolerance}`);
  const now = opts.now ?? Date.now() / 1000;
  const parsed = typeof header === 'string' ? parseSignatureHeader(header) : undefined;
  if (!parsed) return { ok: false, reason: 'malformed' };
  const expected = digest(rawBody, secret, parsed.t);
  let matched = false;
  // Every candidate is compared (no early exit) so timing does not reveal which one matched.
  for (const candidate of parsed.v1) if (timingSafeEqual(Buffer.from(candidate, 'hex'), expected)) matched = true;
  if (!matched) return { ok: false, reason: 'mismatch' };
  if (parsed.t < now - tolerance) return { ok: false, reason: 'stale' };
  if (parsed.t > now + tolerance) return { ok: false, reason: 'future' };
  return { ok: true, timestamp: parsed.t };
}
