// `ncs serve`'s options: the flags as commander hands them over, their checks, and the simulator's
// ServeOptions made from them. The CLI (bin/commands/serve.ts) only wires commander to these.
import { checkRateLimitSettings, RATE_LIMIT_PRESETS, type RateLimitSettings } from '../state/rate-limit-store.ts';
import { DEFAULT_WEBHOOK_HOSTS } from '../webhooks/receiver-url.ts';
import type { ServeOptions } from './serve.ts';

/**
 * A flag of `ncs serve` with a value that cannot work; the message is the one line the CLI prints (exit code 2).
 * @example try { rateLimitOption({ rateLimit: 'fast' }); } catch (err) { err instanceof ServeOptionError; }
 */
export class ServeOptionError extends Error {
  override readonly name = 'ServeOptionError';
}

export interface ServeCommandOptions {
  host: string;
  /** Checked by commander's parser (portOption). */
  port: number;
  altPort?: number;
  fixtures?: string;
  readyFile?: string;
  quiet?: boolean;
  allowBrowserCredentials?: boolean;
  tokenTtl?: number;
  adminToken?: string;
  dataDir?: string;
  /** Name of a deliberate violation, shown in the banner; `sandbox` carries what applies it. */
  violation?: string;
  /** Options from outside the simulator, e.g. the kit's violation wrapper (`wrapCore`, webhook signer). */
  sandbox?: Pick<ServeOptions, 'wrapCore' | 'webhooks'>;
  /** `<calls>/<seconds>`, e.g. 600/60, or `off`. */
  rateLimit?: string;
  /** A named rate limit: `default` or `low` (5 calls per 10 s, for testing retry logic). */
  rateLimitPreset?: string;
  refreshTokenTtl?: number;
  /** `<per feed>/<in all>` open streams, e.g. 10000/20000. */
  streamLimit?: string;
  /** The origin clients reach the server at (OAuth issuer); default the listening address. */
  publicUrl?: string;
  /** Hosts webhook receivers may use besides loopback (`*.example.com`, a name, an address, or `*`). */
  webhookAllowHost?: string[];
  /** Calls kept in the inspector's journal; `inspector: false` (commander's --no-inspector) leaves it out. */
  journalSize?: string;
  /** Bytes of bodies the journal keeps in all: `16m`, `512k`, `1g` or a number of bytes. */
  journalBytes?: string;
  inspector?: boolean;
}

/**
 * A byte size as `--journal-bytes` takes it; undefined when malformed.
 * @example byteSize('16m') // 16777216
 */
export function byteSize(text: string): number | undefined {
  const m = /^(\d+)\s*([kmg])?(?:i?b)?$/i.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]) * 1024 ** ({ k: 1, m: 2, g: 3 }[(m[2] ?? '').toLowerCase() as 'k'] ?? 0);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

/**
 * The receiver hosts of `--webhook-allow-host` added to the loopback default; undefined = the default.
 * @example webhookHostsOption(['hooks.partner.test']) // ['localhost', '127.0.0.0/8', '::1', 'hooks.partner.test']
 */
export function webhookHostsOption(hosts: string[] | undefined): string[] | undefined {
  if (!hosts?.length) return undefined;
  for (const h of hosts)
    if (!/^(\*|(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*|[0-9a-f:]+|\[[0-9a-f:]+\])$/i.test(h))
      throw new ServeOptionError(
        `--webhook-allow-host takes a host name, *.domain, an IP address or * (got "${h}"), not a URL or a port`,
      );
  return [...DEFAULT_WEBHOOK_HOSTS, ...hosts.map((h) => h.toLowerCase().replace(/^\[|\]$/g, ''))];
}

/**
 * The rate limit of `--rate-limit <calls>/<seconds>|off` or `--rate-limit-preset <name>`; undefined = the default.
 * @example rateLimitOption({ rateLimit: '100/10' }) // { limit: 100, windowSeconds: 10 }
 */
export function rateLimitOption(opts: {
  rateLimit?: string;
  rateLimitPreset?: string;
}): RateLimitSettings | false | undefined {
  if (opts.rateLimit !== undefined && opts.rateLimitPreset !== undefined)
    throw new ServeOptionError('use --rate-limit or --rate-limit-preset, not both');
  if (opts.rateLimitPreset !== undefined) {
    const preset = Object.hasOwn(RATE_LIMIT_PRESETS, opts.rateLimitPreset)
      ? RATE_LIMIT_PRESETS[opts.rateLimitPreset as keyof typeof RATE_LIMIT_PRESETS]
      : undefined;
    if (!preset)
      throw new ServeOptionError(`--rate-limit-preset must be one of ${Object.keys(RATE_LIMIT_PRESETS).join(', ')}`);
    return { ...preset };
  }
  if (opts.rateLimit === undefined) return undefined;
  if (opts.rateLimit === 'off') return false;
  const m = /^(\d+)\/(\d+)$/.exec(opts.rateLimit);
  if (!m) throw new ServeOptionError('--rate-limit must look like <calls>/<seconds> (e.g. 600/60) or off');
  try {
    return checkRateLimitSettings({ limit: Number(m[1]), windowSeconds: Number(m[2]) });
  } catch (err) {
    throw new ServeOptionError(`--rate-limit: ${(err as Error).message}`);
  }
}

/**
 * The open-stream limits of `--stream-limit <per feed>/<in all>`; undefined = the defaults (1,000/20,000).
 * @example streamLimitOption('10000/20000') // { maxClientsPerFeed: 10000, maxClients: 20000 }
 */
export function streamLimitOption(
  value: string | undefined,
): { maxClientsPerFeed: number; maxClients: number } | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const perFeed = Number(m?.[1]);
  const all = Number(m?.[2]);
  if (!m || perFeed < 1 || all < perFeed)
    throw new ServeOptionError(
      '--stream-limit must look like <per feed>/<in all> with 1 <= per feed <= in all (e.g. 10000/20000)',
    );
  return { maxClientsPerFeed: perFeed, maxClients: all };
}

/**
 * The simulator's ServeOptions from the checked flags; a bad value throws a ServeOptionError before anything
 * listens. `log` receives the request log unless --quiet.
 * @example await serve(serveOptionsFrom({ host: '127.0.0.1', port: 0 }, console.log));
 */
export function serveOptionsFrom(
  opts: ServeCommandOptions,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): ServeOptions {
  const rateLimit = rateLimitOption(opts);
  const streamLimits = streamLimitOption(opts.streamLimit);
  const webhookHosts = webhookHostsOption(opts.webhookAllowHost);
  const journalSize = opts.journalSize === undefined ? undefined : Number(opts.journalSize);
  if (journalSize !== undefined && !(Number.isSafeInteger(journalSize) && journalSize >= 1 && journalSize <= 100_000))
    throw new ServeOptionError('--journal-size must be a whole number of calls from 1 to 100000');
  const journalBytes = opts.journalBytes === undefined ? undefined : byteSize(opts.journalBytes);
  if (opts.journalBytes !== undefined && (journalBytes === undefined || journalBytes < 64 * 1024))
    throw new ServeOptionError('--journal-bytes must be a size of at least 64k, e.g. 16m, 512k or 1g');
  const adminToken = opts.adminToken ?? env.NCS_ADMIN_TOKEN;
  const options: ServeOptions = { host: opts.host, port: opts.port, ...opts.sandbox };
  if (opts.altPort !== undefined) options.altPort = opts.altPort;
  if (opts.fixtures) options.fixtures = opts.fixtures;
  if (opts.readyFile) options.readyFile = opts.readyFile;
  if (!opts.quiet) options.log = log;
  if (opts.allowBrowserCredentials) options.allowBrowserCredentials = true;
  if (opts.dataDir) options.dataDir = opts.dataDir;
  if (opts.tokenTtl !== undefined) options.tokenTtlSeconds = opts.tokenTtl;
  if (opts.refreshTokenTtl !== undefined) options.refreshTokenTtlSeconds = opts.refreshTokenTtl;
  if (rateLimit !== undefined) options.rateLimit = rateLimit;
  if (adminToken) options.adminToken = adminToken;
  if (streamLimits) options.stream = { limits: streamLimits };
  if (opts.publicUrl !== undefined) options.publicUrl = opts.publicUrl;
  if (webhookHosts) options.webhooks = { ...options.webhooks, allowedHosts: webhookHosts };
  if (opts.inspector === false) options.inspector = false;
  else if (journalSize || journalBytes)
    options.inspector = { ...(journalSize ? { journalSize } : {}), ...(journalBytes ? { journalBytes } : {}) };
  return options;
}
