// `ncs webhook listen`'s options: flags, then a ready file, then NCS_* variables (webhook-listen.ts
// registers the command and loads this module when it runs).
import type { ListenOptions } from '../../../conformance/client/webhook-relay.ts';
import { baseUrlOf, readReadyFile } from './target.ts';
import { UsageError } from './usage.ts';

export interface ListenFlags {
  baseUrl?: string;
  token?: string;
  tenant?: string;
  readyFile?: string;
  events?: string;
  forwardTo?: string;
  forwardSecret?: string;
  port?: number;
}

/**
 * The listen options from flags, then a ready file, then NCS_BASE_URL / NCS_TOKEN / NCS_TENANT /
 * NCS_WEBHOOK_SECRET.
 * @example listenOptionsFrom({ readyFile: '/tmp/ncs.json', forwardTo: 'http://127.0.0.1:3000/hooks' })
 */
export function listenOptionsFrom(o: ListenFlags, env = process.env): ListenOptions {
  const ready = readReadyFile(o.readyFile);
  const token = o.token ?? ready.token ?? env.NCS_TOKEN;
  const tenant = o.tenant ?? ready.tenant ?? env.NCS_TENANT;
  if (!token || !tenant)
    throw new UsageError('webhook listen needs --token and --tenant (or --ready-file, NCS_TOKEN and NCS_TENANT)');
  if (o.forwardSecret !== undefined && !o.forwardTo) throw new UsageError('--forward-secret needs --forward-to');
  const forwardSecret = o.forwardSecret ?? env.NCS_WEBHOOK_SECRET;
  const options: ListenOptions = { baseUrl: baseUrlOf(o.baseUrl ?? ready.baseUrl, env), token, tenant };
  if (o.events)
    options.events = o.events
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
  if (o.forwardTo) options.forwardTo = forwardUrlOf(o.forwardTo);
  if (forwardSecret && o.forwardTo) options.forwardSecret = forwardSecret;
  if (o.port !== undefined) options.port = o.port;
  return options;
}

function forwardUrlOf(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // Reported below.
  }
  throw new UsageError(`--forward-to must be an absolute http(s) URL, not ${JSON.stringify(text.slice(0, 80))}`);
}
