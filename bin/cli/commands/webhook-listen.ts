// `ncs webhook listen`: flags, then a ready file, then NCS_* variables; runs until Ctrl-C or SIGTERM and
// removes its receiver on the way out.
import type { Command } from 'commander';
import { portOption } from './usage.ts';
import type { ListenFlags } from './webhook-listen-options.ts';

export function registerWebhookListen(webhook: Command): void {
  webhook
    .command('listen')
    .description('register a receiver on a running simulator, print each delivery and forward it to a local URL')
    .option('--base-url <url>', 'simulator base URL (env NCS_BASE_URL)')
    .option('--token <token>', 'bearer token (env NCS_TOKEN)')
    .option('--tenant <id>', 'tenant (env NCS_TENANT)')
    .option('--ready-file <path>', 'read base URL, token and tenant from ncs serve --ready-file')
    .option('--events <list>', 'comma-separated event names (default: all)')
    .option('--forward-to <url>', 'forward each delivery to this local URL')
    .option(
      '--forward-secret <secret>',
      're-sign forwarded deliveries with this secret instead of printing the issued one (env NCS_WEBHOOK_SECRET)',
    )
    .option('--port <port>', 'port of the local receiver (default: any free one)', portOption)
    .action(async (o: ListenFlags) => {
      // The relay, its receiver and the ready file's schema load when the command runs (lazy.ts).
      const { listenOptionsFrom } = await import('./webhook-listen-options.ts');
      const options = listenOptionsFrom(o);
      const [{ listenForWebhooks }, { reachingFetch }] = await Promise.all([
        import('../../../conformance/client/webhook-relay.ts'),
        import('../../../simulator/lib/reach.ts'),
      ]);
      const listening = await listenForWebhooks({
        ...options,
        fetch: reachingFetch(globalThis.fetch, options.baseUrl),
      });
      // Ctrl-C or a supervisor's SIGTERM: remove the registration, then leave.
      const stop = () => {
        listening.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
