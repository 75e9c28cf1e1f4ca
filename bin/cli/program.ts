// The ncs program (loaded by bin/ncs.ts): commander wiring only; each command lives in bin/commands/, one file each.
// Registering a command reads only its options and help; the library modules it runs are imported when it
// runs (commands/lazy.ts), so `ncs --version`, a usage error or `ncs webhook sign` loads none of the others'.
// Exit codes: 0 done; 1 a negative verdict (a MUST failed, a signature or audit chain invalid); 2 the
// command could not do its work (usage error, unreachable deployment, credentials refused).
import { Command, CommanderError } from 'commander';
import { registerAuditVerify } from './commands/audit-verify.ts';
import { registerClientReport } from './commands/client-report.ts';
import { registerConformanceList } from './commands/conformance-list.ts';
import { registerConformanceRun } from './commands/conformance-run.ts';
import { oneLineErrors, reportFailure, trackRunningCommand } from './commands/errors.ts';
import { registerInspector } from './commands/inspector.ts';
import { registerOpenApi } from './commands/openapi.ts';
import { registerSandbox } from './commands/sandbox.ts';
import { registerServe } from './commands/serve.ts';
import { registerToken } from './commands/token.ts';
import { registerVersion } from './commands/version.ts';
import { registerWebhookListen } from './commands/webhook-listen.ts';
import { registerWebhookSign } from './commands/webhook-sign.ts';
import { registerWebhookVerify } from './commands/webhook-verify.ts';

// A closed pipe (`ncs openapi | head`) ends the output, not the process with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// Settings made here are inherited by every command created below (commander copies them).
const program = new Command('ncs')
  .description('Network Connections Service sandbox: simulator and conformance kit')
  .exitOverride();

registerServe(program);
registerToken(program);
registerOpenApi(program);
registerSandbox(program);
registerInspector(program);

const webhook = program
  .command('webhook')
  .description('sign, verify and receive webhook deliveries (t=<unix-seconds>,v1=<hex>)');
registerWebhookSign(webhook);
registerWebhookVerify(webhook);
registerWebhookListen(webhook);

registerAuditVerify(program.command('audit').description('audit-log tools'));

const conformance = program.command('conformance').description('check any deployment against the interface');
registerConformanceRun(conformance);
registerConformanceList(conformance);
registerVersion(program);

registerClientReport(program);

oneLineErrors(program);
trackRunningCommand(program);
program.parseAsync().catch((err: unknown) => {
  // Commander printed its own message already (or the help: exit code 0).
  if (err instanceof CommanderError) process.exit(err.exitCode === 0 ? 0 : 2);
  reportFailure(err);
});
