// `ncs serve`: the HTTP simulator with a banner, stopped cleanly on SIGINT/SIGTERM.

import { flushCompileCache } from 'node:module';
import type { Command } from 'commander';
import { serve } from '../../simulator/app/serve.ts';
import { type ServeCommandOptions, serveOptionsFrom } from '../../simulator/app/serve-options.ts';
import { portOption, positiveIntOption } from './usage.ts';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('start the simulator over HTTP with the built-in (or given) fixtures')
    .option('--host <host>', 'address to listen on (loopback by default)', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', portOption, 4010)
    .option('--alt-port <port>', "also listen here: the interface's alternate base URL (0: any free port)", portOption)
    .option('--fixtures <file>', 'JSON fixture set to load instead of the built-in hospitality network')
    .option('--ready-file <path>', 'write {baseUrl, token, tenant, adminToken, inspectorUrl} as JSON once listening')
    .option('--token-ttl <seconds>', 'lifetime of issued access tokens', positiveIntOption)
    .option('--admin-token <token>', 'control-plane token (default: random; env NCS_ADMIN_TOKEN)')
    .option('--allow-browser-credentials', 'accept credentials sent with an Origin header (local tooling)')
    .option('--data-dir <dir>', 'persist state (SQLite) in this folder; survives restarts and kill -9')
    .option('--quiet', 'no request log lines')
    .option(
      '--rate-limit <calls/seconds>',
      'calls per window per access, tenant and environment, e.g. 600/60 (the default), or off',
    )
    .option('--rate-limit-preset <name>', 'a named rate limit: default (600/60) or low (5/10, for testing retry logic)')
    .option('--refresh-token-ttl <seconds>', 'lifetime of each refresh token (default 86400)', positiveIntOption)
    .option('--violation <name>', 'break one rule of the interface on purpose (conformance kit self-test)')
    .option(
      '--stream-limit <perFeed/all>',
      'open status streams per feed and in all (default 1000/20000), e.g. 10000/20000 for load tests',
    )
    .option(
      '--public-url <url>',
      'origin clients reach the server at: the OAuth issuer (default: the listening address)',
    )
    .option('--webhook-allow-host <host...>', 'also deliver webhooks to these hosts (name, *.domain, IP or *)')
    .option('--journal-size <calls>', "calls kept in the inspector's request journal (default 500)")
    .option('--journal-bytes <size>', 'bytes of bodies the journal keeps in all, e.g. 64m (default 16m)')
    .option('--no-inspector', 'serve no inspector page and keep no request journal')
    .action(async (opts: ServeCommandOptions) => {
      // The violations belong to the kit's self-test: the simulator only receives the wrapper.
      const sandbox = opts.violation
        ? (await import('../../conformance/violations/index.ts')).violationOptions(opts.violation)
        : undefined;
      await runServe({ ...opts, ...(sandbox ? { sandbox } : {}) });
    });
}

/**
 * `ncs serve`: starts the HTTP simulator, prints the banner, stops cleanly on SIGINT/SIGTERM.
 * @example await runServe({ host: '127.0.0.1', port: 4010 });
 */
export async function runServe(
  opts: ServeCommandOptions,
  out: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
) {
  const options = serveOptionsFrom(opts, out);
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
  // The compile cache (bin/ncs.ts) is written at exit, which a killed server never reaches: write it
  // now, with everything start-up compiled, so the next start reads it.
  flushCompileCache();
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
  if (running.inspectorUrl) {
    out(`  inspector   ${running.inspectorUrl}   (open in a browser; the link logs in once)`);
    out(`              a new link any time: ncs inspector --base-url ${running.baseUrl}   (with NCS_ADMIN_TOKEN)`);
  }
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
