import { serve, type ServeOptions } from '../app/serve.ts';
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
  violation?: string;
  /** `<calls>/<seconds>`, e.g. 600/60, or `off`. */
  rateLimit?: string;
  /** A named rate limit: `default` or `low` (5 calls per 10 s, for testing retry logic). */
  rateLimitPreset?: string;
  refreshTokenTtl?: string;
  /** `<per feed>/<in all>` open streams, e.g. 10000/20000. */
  streamLimit?: string;
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
 * `ncs serve`: starts the HTTP simulator, prints the banner, stops cleanly on SIGINT/SIGTERM.
 * @example await runServe({ host: '127.0.0.1', port: '4010' });
 */
export async function runServe(
  opts: ServeCommandOptions,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
) {
  const rateLimit = rateLimitOption(opts);
  const streamLimits = streamLimitOption(opts.streamLimit);
  const options: ServeOptions = {
    host: opts.host,
    port: Number(opts.port),
    ...(opts.altPort !== undefined ? { altPort: Number(opts.altPort) } : {}),
    ...(opts.fixtures ? { fixtures: opts.fixtures } : {}),
    ...(opts.readyFile ? { readyFile: opts.readyFile } : {}),
    ...(opts.quiet ? {} : { log: out }),
    ...(opts.allowBrowserCredentials ? { allowBrowserCredentials: true } : {}),
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.tokenTtl ? { tokenTtlSeconds: Number(opts.tokenTtl) } : {}),
    ...(opts.refreshTokenTtl ? { refreshTokenTtlSeconds: Number(opts.refreshTokenTtl) } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...((opts.adminToken ?? process.env.NCS_ADMIN_TOKEN)
      ? { adminToken: opts.adminToken ?? process.env.NCS_ADMIN_TOKEN }
      : {}),
    ...(opts.violation ? { violation: opts.violation } : {}),
    ...(streamLimits ? { stream: { limits: streamLimits } } : {}),
  };
  const running = await serve(options);
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
  const stop = (signal: string) => {
    out(`received ${signal}, shutting down`);
    running.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return running;
}
