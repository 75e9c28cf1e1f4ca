// `ncs serve`'s options: the flags as commander hands them over, their checks, and the simulator's
// ServeOptions made from them. The CLI (bin/cli/commands/serve.ts) only wires commander to these.
import { checkRateLimitSettings, RATE_LIMIT_PRESETS, type RateLimitSettings } from '../services/rate-limit-service.ts';
import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { DEFAULT_WEBHOOK_HOSTS } from '../webhooks/receiver-url.ts';
import type { ServeOptions } from './serve.ts';
import {
  defineOptions,
  listOption,
  type OptionsOf,
  optionsFrom,
  parsedOption,
  switchOption,
  textOption,
} from '../contract/option-table.ts';

/**
 * A flag of `ncs serve` with a value that cannot work; the message is the one line the CLI prints (exit code 2).
 * @example try { rateLimitOption({ rateLimit: 'fast' }); } catch (err) { err instanceof ServeOptionError; }
 */
export class ServeOptionError extends Error {
  override readonly name = 'ServeOptionError';
}

/** Reads a TCP port (0 = any free one). */
export function portNumber(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535) throw new Error('A port is a whole number from 0 to 65535');
  return Number(text);
}
/**
 * Reads the wait before the first webhook retry, in ms (0 to WEBHOOK_DEFAULTS.maxDelayMs, the cap of every wait).
 * @example retryBaseMs('100') // 100: retries after ~0.1 s, 0.2 s, 0.4 s, 0.8 s
 */
export function retryBaseMs(text: string): number {
  const max = WEBHOOK_DEFAULTS.maxDelayMs;
  if (!/^\d{1,15}$/.test(text) || Number(text) > max) throw new Error(`Expected a whole number of ms from 0 to ${max}`);
  return Number(text);
}
/** Reads a whole number of at least 1 (a count, seconds). */
export function positiveWholeNumber(text: string): number {
  if (!/^\d{1,15}$/.test(text) || Number(text) < 1) throw new Error('Expected a whole number of at least 1');
  return Number(text);
}

/**
 * `ncs serve`'s options, each declared once: flag, environment variable, reader, help. Commander's
 * flags (bin/cli/commands/serve.ts), the environment mapping and ServeCommandOptions come from this table;
 * serveOptionsFrom turns the values into the simulator's ServeOptions.
 */
export const SERVE_OPTIONS = defineOptions({
  host: { ...textOption('--host <host>', 'address to listen on (loopback by default)'), default: '127.0.0.1' },
  port: { ...parsedOption('--port <port>', 'port to listen on (0: any free port)', portNumber), default: 4010 },
  altPort: parsedOption(
    '--alt-port <port>',
    "also listen here: the interface's alternate base URL (0: any free port)",
    portNumber,
  ),
  fixtures: textOption('--fixtures <file>', 'JSON fixture set to load instead of the built-in hospitality network'),
  readyFile: textOption(
    '--ready-file <path>',
    'write {baseUrl, token, tenant, adminToken, inspectorUrl} as JSON once listening',
  ),
  tokenTtl: parsedOption('--token-ttl <seconds>', 'lifetime of issued access tokens', positiveWholeNumber),
  adminToken: textOption('--admin-token <token>', 'control-plane token (default: random)', 'NCS_ADMIN_TOKEN'),
  allowBrowserCredentials: switchOption(
    '--allow-browser-credentials',
    'accept credentials sent with an Origin header (local tooling)',
  ),
  dataDir: textOption('--data-dir <dir>', 'persist state (SQLite) in this folder; survives restarts and kill -9'),
  store: textOption(
    '--store <url>',
    'share the state with other replicas through Redis, e.g. redis://127.0.0.1:6379/0',
    'NCS_STORE',
  ),
  quiet: switchOption('--quiet', 'no request log lines'),
  rateLimit: textOption(
    '--rate-limit <calls/seconds>',
    'calls per window per access, tenant and environment, e.g. 1200/60 (the default), or off',
  ),
  rateLimitPreset: textOption(
    '--rate-limit-preset <name>',
    'a named rate limit: default (1200/60) or low (5/10, for testing retry logic)',
  ),
  refreshTokenTtl: parsedOption(
    '--refresh-token-ttl <seconds>',
    'lifetime of each refresh token (default 86400)',
    positiveWholeNumber,
  ),
  violation: textOption('--violation <name>', 'break one rule of the interface on purpose (conformance kit self-test)'),
  streamLimit: textOption(
    '--stream-limit <perFeed/all>',
    'open status streams per feed and in all (default 1000/20000), e.g. 10000/20000 for load tests',
  ),
  publicUrl: textOption(
    '--public-url <url>',
    'origin clients reach the server at: the OAuth issuer (default: the listening address)',
  ),
  webhookAllowHost: listOption(
    '--webhook-allow-host <host...>',
    'also deliver webhooks to these hosts (name, *.domain, IP or *)',
  ),
  // Tests and CI of receivers that fail on purpose: the default schedule (1+2+4+8 s) sits out 15 s per delivery.
  webhookRetryBase: parsedOption(
    '--webhook-retry-base <ms>',
    `wait before the first webhook retry, doubled for each next one (default ${WEBHOOK_DEFAULTS.baseDelayMs}), e.g. 100 for tests`,
    retryBaseMs,
  ),
  journalSize: textOption('--journal-size <calls>', "calls kept in the inspector's request journal (default 500)"),
  journalBytes: textOption(
    '--journal-bytes <size>',
    'bytes of bodies the journal keeps in all, e.g. 64m (default 16m)',
  ),
  inspector: switchOption('--no-inspector', 'serve no inspector page and keep no request journal'),
  trace: switchOption('--trace', 'print each pipeline step of each request to stderr', 'NCS_TRACE'),
});

/** `ncs serve`'s options by the table, plus what only code gives (the kit's violation wrapper). */
export type ServeCommandOptions = OptionsOf<typeof SERVE_OPTIONS> & {
  /** Options from outside the simulator, e.g. the kit's violation wrapper (`wrapCore`, webhook signer). */
  sandbox?: Pick<ServeOptions, 'wrapCore' | 'webhooks'>;
};

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
  if (!m) throw new ServeOptionError('--rate-limit must look like <calls>/<seconds> (e.g. 1200/60) or off');
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
  flags: ServeCommandOptions,
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): ServeOptions {
  const opts = optionsFrom(SERVE_OPTIONS, flags, env);
  const rateLimit = rateLimitOption(opts);
  const streamLimits = streamLimitOption(opts.streamLimit);
  const webhookHosts = webhookHostsOption(opts.webhookAllowHost);
  if (opts.store) {
    if (!/^rediss?:\/\/[^/]/.test(opts.store))
      throw new ServeOptionError(`--store takes a redis:// URL such as redis://127.0.0.1:6379/0 (got "${opts.store}")`);
    if (opts.dataDir) throw new ServeOptionError('use --store or --data-dir, not both');
  }
  // The control-plane token travels in an Authorization header: printable, no spaces (an empty one, an
  // unset variable, still means a random token). Refused without quoting it: it is a secret.
  if (opts.adminToken && !/^[\x21-\x7e]+$/.test(opts.adminToken))
    throw new ServeOptionError(
      '--admin-token must be printable ASCII without spaces or control characters (an Authorization header carries it); the value is not shown',
    );
  const journalSize = opts.journalSize === undefined ? undefined : Number(opts.journalSize);
  if (journalSize !== undefined && !(Number.isSafeInteger(journalSize) && journalSize >= 1 && journalSize <= 100_000))
    throw new ServeOptionError('--journal-size must be a whole number of calls from 1 to 100000');
  const journalBytes = opts.journalBytes === undefined ? undefined : byteSize(opts.journalBytes);
  if (opts.journalBytes !== undefined && (journalBytes === undefined || journalBytes < 64 * 1024))
    throw new ServeOptionError('--journal-bytes must be a size of at least 64k, e.g. 16m, 512k or 1g');
  // Undefined members leave the simulator's defaults in force (createSandbox reads each with ??).
  return dropUndefined({
    ...flags.sandbox,
    host: opts.host,
    port: opts.port,
    altPort: opts.altPort,
    fixtures: opts.fixtures || undefined,
    readyFile: opts.readyFile || undefined,
    log: opts.quiet ? undefined : log,
    allowBrowserCredentials: opts.allowBrowserCredentials || undefined,
    dataDir: opts.dataDir || undefined,
    store: opts.store || undefined,
    tokenTtlSeconds: opts.tokenTtl,
    refreshTokenTtlSeconds: opts.refreshTokenTtl,
    rateLimit,
    adminToken: opts.adminToken || undefined,
    stream: streamLimits && { limits: streamLimits },
    publicUrl: opts.publicUrl,
    webhooks: webhooksOption(flags.sandbox?.webhooks, webhookHosts, opts.webhookRetryBase),
    inspector:
      opts.inspector === false
        ? false
        : journalSize || journalBytes
          ? { ...(journalSize ? { journalSize } : {}), ...(journalBytes ? { journalBytes } : {}) }
          : undefined,
    trace: opts.trace ? (line: string) => void process.stderr.write(`ncs trace ${line}\n`) : undefined,
  });
}

/** The webhook options from code, with the receiver hosts and retry base of the flags; undefined when none. */
function webhooksOption(
  fromCode: ServeOptions['webhooks'],
  allowedHosts: string[] | undefined,
  baseDelayMs: number | undefined,
): ServeOptions['webhooks'] {
  if (!allowedHosts && baseDelayMs === undefined) return fromCode;
  return {
    ...fromCode,
    ...(allowedHosts ? { allowedHosts } : {}),
    ...(baseDelayMs !== undefined ? { baseDelayMs } : {}),
  };
}

/** The object without its undefined members: spreads and `in` checks downstream see only what was given. */
function dropUndefined<T extends object>(o: T): T {
  for (const key of Object.keys(o) as (keyof T)[]) if (o[key] === undefined) delete o[key];
  return o;
}
