import { serve, type ServeOptions } from '../app/serve.ts';
import { DEFAULT_WEBHOOK_HOSTS } from '../webhooks/receiver-url.ts';
import { checkRateLimitSettings, RATE_LIMIT_PRESETS, type RateLimitSettings } from '../state/rate-limit-store.ts';

export interface ServeCommandOptions {
  host: string;
  port: string;
  altPort?: string;
  fixtures?: string;
  readyFile?: string;
  quiet?: boolean;
  allowBrowserCredentials?: boolean;
  tokenTtl?: string;
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
  refreshTokenTtl?: string;
  /** `<per feed>/<in all>` open streams, e.g. 10000/20000. */
  streamLimit?: string;
  /** The origin clients reach the server at (OAuth issuer); default the listening address. */
  publicUrl?: string;
  /** Hosts webhook receivers may use besides loopback (`*.example.com`, a name, an address, or `*`). */
  webhookAllowHost?: string[];
  /** Calls kept in the inspector's journal; `inspector: false` (commander's --no-inspector) leaves it out. */
  journalSize?: string;
  inspector?: boolean;
}

/**
 * The receiver hosts of `--webhook-allow-host` added to the loopback default; undefined = the default.
 * @example webhookHostsOption(['hooks.partner.test']) // ['localhost', '127.0.0.0/8', '::1', 'hooks.partner.test']
 */
export function webhookHostsOption(hosts: string[] | undefined): string[] | undefined {
  if (!hosts?.length) return undefined;
  for (const h of hosts)
    if (!/^(\*|(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*|[0-9a-f:]+|\[[0-9a-f:]+\])$/i.test(h))
      throw new Error(
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
    throw new Error('use --rate-limit or --rate-limit-preset, not both');
  if (opts.rateLimitPreset !== undefined) {
    const preset = Object.hasOwn(RATE_LIMIT_PRESETS, opts.rateLimitPreset)
      ? RATE_LIMIT_PRESETS[opts.rateLimitPreset as keyof typeof RATE_LIMIT_PRESETS]
      : undefined;
    if (!preset) throw new Error(`--rate-limit-preset must be one of ${Object.keys(RATE_LIMIT_PRESETS).join(', ')}`);
    return { ...preset };
  }
  if (opts.rateLimit === undefined) return undefined;
  if (opts.rateLimit === 'off') return false;
  const m = /^(\d+)\/(\d+)$/.exec(opts.rateLimit);
  if (!m) throw new Error('--rate-limit must look like <calls>/<seconds> (e.g. 600/60) or off');
  try {
    return checkRateLimitSettings({ limit: Number(m[1]), windowSeconds: Number(m[2]) });
  } catch (err) {
    throw new Error(`--rate-limit: ${(err as Error).message}`);
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
    throw new Error(
      '--stream-limit must look like <per feed>/<in all> with 1 <= per feed <= in all (e.g. 10000/20000)',
    );
  return { maxClientsPerFeed: perFeed, maxClients: all };
}

/**
 * A whole-number option checked before use, so `--port abc` is a usage error naming the option.
 * @example wholeNumberOption('--port', '4010', 0, 65535) // 4010
 */
export function wholeNumberOption(name: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(Number.isSafeInteger(n) && n >= min && n <= max))
    throw new Error(`${name} takes a whole number from ${min} to ${max} (got "${value}")`);
  return n;
}

/**
 * `ncs serve`: starts the HTTP simulator, prints the banner, stops cleanly on SIGINT/SIGTERM.
 * @example await runServe({ host: '127.0.0.1', port: '4010' });
 */
export async function runServe(
  opts: ServeCommandOptions,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
) {
  const rateLimit = rateLimitOption(opts);
  const streamLimits = streamLimitOption(opts.streamLimit);
  const webhookHosts = webhookHostsOption(opts.webhookAllowHost);
  const journalSize = opts.journalSize === undefined ? undefined : Number(opts.journalSize);
  if (journalSize !== undefined && !(Number.isSafeInteger(journalSize) && journalSize >= 1 && journalSize <= 100_000))
    throw new Error('--journal-size must be a whole number of calls from 1 to 100000');
  const options: ServeOptions = {
    host: opts.host,
    port: wholeNumberOption('--port', opts.port, 0, 65535),
    ...(opts.altPort !== undefined ? { altPort: wholeNumberOption('--alt-port', opts.altPort, 0, 65535) } : {}),
    ...(opts.fixtures ? { fixtures: opts.fixtures } : {}),
    ...(opts.readyFile ? { readyFile: opts.readyFile } : {}),
    ...(opts.quiet ? {} : { log: out }),
    ...(opts.allowBrowserCredentials ? { allowBrowserCredentials: true } : {}),
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.tokenTtl ? { tokenTtlSeconds: wholeNumberOption('--token-ttl', opts.tokenTtl, 1, 31_536_000) } : {}),
    ...(opts.refreshTokenTtl
      ? { refreshTokenTtlSeconds: wholeNumberOption('--refresh-token-ttl', opts.refreshTokenTtl, 1, 31_536_000) }
      : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...((opts.adminToken ?? process.env.NCS_ADMIN_TOKEN)
      ? { adminToken: opts.adminToken ?? process.env.NCS_ADMIN_TOKEN }
      : {}),
    ...opts.sandbox,
    ...(streamLimits ? { stream: { limits: streamLimits } } : {}),
    ...(opts.publicUrl !== undefined ? { publicUrl: opts.publicUrl } : {}),
    ...(webhookHosts ? { webhooks: { allowedHosts: webhookHosts } } : {}),
    ...(opts.inspector === false ? { inspector: false as const } : journalSize ? { inspector: { journalSize } } : {}),
  };
  // Handlers first: a SIGTERM right after the ready file appears must stop the server cleanly,
  // not kill the process with the signal.
  let running: Awaited<ReturnType<typeof serve>> | undefined;
  let stopping: string | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = signal;
    out(`received ${signal}, shutting down`);
    if (running) drainAndExit(running);
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  running = await serve(options);
  if (stopping) {
    drainAndExit(running);
    return running;
  }
  const api = `${running.baseUrl}/api/public/v1`;
  out(
    `ncs sandbox listening on ${running.baseUrl}${running.altBaseUrl ? ` and ${running.altBaseUrl} (alternate base URL)` : ''}`,
  );
  if (opts.violation)
    out(`  VIOLATION   ${opts.violation}: this simulator breaks the interface on purpose (conformance self-test)`);
  out(`  interface   ${api}   (OpenAPI: ${api}/openapi.json)`);
  out(`  tenant      ${running.tenant}`);
  out(`  token       ${running.token}`);
  out(`  admin token ${running.sandbox.adminToken}   (control plane only)`);
  if (running.inspectorUrl) out(`  inspector   ${running.inspectorUrl}   (open in a browser; the link logs in once)`);
  out(`  oauth       ${running.baseUrl}/oauth/token   (metadata: /.well-known/oauth-authorization-server)`);
  out(`  new token   ncs token --base-url ${running.baseUrl} --client-id <id> --client-secret <secret>`);
  const limits = running.sandbox.state.rateLimits.settings();
  out(
    `  rate limit  ${limits ? `${limits.limit} calls per ${limits.windowSeconds} s per access, tenant and environment` : 'off'}`,
  );
  out(`  try:        export NCS_TOKEN=${running.token}`);
  out(
    `              curl -s ${api}/providers -H "Authorization: Bearer $NCS_TOKEN" -H "x-service-tenant: ${running.tenant}"`,
  );
  return running;
}

/** How long a shutdown waits for requests in progress before cutting them. */
export const DRAIN_MS = 5_000;

/**
 * Stops accepting, finishes what has arrived, exits 0; requests still running after DRAIN_MS are cut,
 * said on stderr, and the exit code is 1 so a supervisor sees the shutdown was not clean.
 */
function drainAndExit(running: { close(): Promise<void> }) {
  setTimeout(() => {
    process.stderr.write(`ncs: requests still running after ${DRAIN_MS / 1000} s were cut off at shutdown\n`);
    process.exit(1);
  }, DRAIN_MS).unref();
  running.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
}
