// What the webhook commands read: the exact body bytes, the signing secret, unix-seconds values.
import { readFileSync } from 'node:fs';
import { UsageError } from './usage.ts';

/**
 * The exact bytes of a body: from a file, or stdin when no file is given.
 * @example readBody('delivery.json')
 */
export function readBody(file?: string): Buffer {
  try {
    return readFileSync(file ?? 0);
  } catch (err) {
    throw new UsageError(`cannot read the body from ${file ?? 'stdin'}: ${(err as Error).message}`);
  }
}

/**
 * The signing secret from --secret, else NCS_WEBHOOK_SECRET.
 * @example secretOf(undefined, { NCS_WEBHOOK_SECRET: 'whsec_x' }) // 'whsec_x'
 */
export function secretOf(secret: string | undefined, env: NodeJS.ProcessEnv): string {
  const s = secret ?? env.NCS_WEBHOOK_SECRET;
  if (!s) throw new UsageError('give the signing secret with --secret or the environment variable NCS_WEBHOOK_SECRET');
  return s;
}

/**
 * A unix-seconds flag value (digits only).
 * @example unixSeconds('--now', '1767225600') // 1767225600
 */
export function unixSeconds(name: string, value: string): number {
  if (!/^\d{1,15}$/.test(value))
    throw new UsageError(`${name} must be unix seconds (digits only), not "${value.slice(0, 40)}"`);
  return Number(value);
}
