// `ncs serve`: the HTTP simulator with a banner, stopped cleanly on SIGINT/SIGTERM.

import { flushCompileCache } from 'node:module';
import type { Command } from 'commander';
import type { serve } from '../../../simulator/app/serve.ts';
import { SERVE_OPTIONS, type ServeCommandOptions, serveOptionsFrom } from '../../../simulator/app/serve-options.ts';
import { addOptions } from '../option-table.ts';

export function registerServe(program: Command): void {
  const serveCommand = program
    .command('serve')
    .description('start the simulator over HTTP with the built-in (or given) fixtures');
  // Every option is a row of SERVE_OPTIONS: flag, variable, reader and help declared once there.
  addOptions(serveCommand, SERVE_OPTIONS).action(async (opts: ServeCommandOptions) => {
    // The violations belong to the kit's self-test: the simulator only receives the wrapper.
    const sandbox = opts.violation
      ? (await import('../../../conformance/violations/index.ts')).violationOptions(opts.violation)
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
  // The compile cache (bin/cli/main.ts) is written at exit, which a killed server never reaches: write
  // it once listening, with everything start-up compiled, and before the ready file appears (a script
  // that kills the server as soon as it is ready still leaves it for the next start).
  // The simulator is loaded here, not at the top: every other command (token, webhook sign, --version)
  // would otherwise load all of it at start.
  const { serve: start } = await import('../../../simulator/app/serve.ts');
  running = await start(options, { beforeReady: flushCompileCache });
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
  if (running.store) out(`  store       ${running.store}   (shared with every replica on it)`);
  if (running.inspectorUrl) {
    out(`  inspector   ${running.inspectorUrl}   (open in a browser; the link logs in once)`);
    out(
      `              a new link any time: ${ncsCommandHere()} inspector --base-url ${running.baseUrl}   (with NCS_ADMIN_TOKEN)`,
    );
  }
  out(`  oauth       ${running.baseUrl}/oauth/token   (metadata: /.well-known/oauth-authorization-server)`);
  out(
    `  new token   ${ncsCommandHere()} token --base-url ${running.baseUrl} --client-id <id> --client-secret <secret>`,
  );
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

/**
 * How to call ncs where this one runs: from a clone (`node bin/ncs.ts`, this module a .ts file, or the
 * bundle of the clone's sources that bin/ncs.mjs started and marked) `ncs` is on nobody's PATH, so
 * `npm run ncs --`; from the installed bundle, `npx ncs`.
 * @example ncsCommandHere('file:///app/node_modules/ncs-sandbox/dist/cli/ncs-main.js') // 'npx ncs'
 */
export function ncsCommandHere(
  moduleUrl: string = import.meta.url,
  fromClone = (globalThis as Record<symbol, unknown>)[Symbol.for('ncs-sandbox.clone')] === true,
): string {
  return fromClone || moduleUrl.endsWith('.ts') ? 'npm run ncs --' : 'npx ncs';
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
