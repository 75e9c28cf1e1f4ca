// `ncs token`: an access token by client credentials, for curl users.
import type { Command } from 'commander';

export function registerToken(program: Command): void {
  program
    .command('token')
    .description('get an access token from a running simulator by client credentials (for curl)')
    .option('--base-url <url>', 'where the simulator runs, with or without /api/public/v1 (env NCS_BASE_URL)')
    .requiredOption(
      '--client-id <id>',
      'OAuth client or service account from the fixtures (env NCS_CLIENT_ID)',
      process.env.NCS_CLIENT_ID,
    )
    .requiredOption(
      '--client-secret <secret>',
      'its secret (env NCS_CLIENT_SECRET keeps it out of the process list)',
      process.env.NCS_CLIENT_SECRET,
    )
    .option('--scope <scopes>', 'space- or comma-separated scopes (default: all of the client)')
    .option('--json', 'print the whole token answer as JSON')
    .action(
      async (opts: { baseUrl?: string; clientId: string; clientSecret: string; scope?: string; json?: boolean }) => {
        // Loaded when the command runs, not at every start (see program.ts).
        const [{ requestToken }, { baseUrlOf }] = await Promise.all([
          import('../../../simulator/auth-server/token-client.ts'),
          import('./target.ts'),
        ]);
        process.stdout.write(`${await requestToken({ ...opts, baseUrl: baseUrlOf(opts.baseUrl) })}\n`);
      },
    );
}
