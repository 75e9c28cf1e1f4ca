// Starts elm by hand: `npx node conformance/e2e/independent/elm/start.ts [out.json]`.
// Prints (and writes to out.json) the addresses, tenants and client credentials; Ctrl-C stops it.
//
// ELM_* variables switch on other legal choices, to try the kit against them:
//   ELM_PORT, ELM_ALT_PORT          fixed ports (default: any free loopback port)
//   ELM_RATE_LIMIT, ELM_WINDOW_MS   fixed window per client id (default 600 calls / 60000 ms)
//   ELM_ACTIVATION_MS               Requested → Active timer (default 1000)
//   ELM_STREAM_MAX_MS               the server closes every stream after this long (default 30000)
//   ELM_OUTBOX_POLL_MS              webhook outbox polling period (default 500)
//   ELM_SERVICE_VERSION_REQUIRED=1  refuse calls without Service-Version (400 invalid_request)
//   ELM_TOKEN_LIFETIME_S            access token lifetime (default 300)
//   ELM_AUDIT_MAX_LIMIT             largest audit-log `limit` (default 100; larger → 400)
import { writeFileSync } from 'node:fs';
import { startElm } from './server.ts';

const env = process.env;

function num(name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    console.error(`${name} must be a non-negative integer, got '${text}'`);
    process.exit(2);
  }
  return value;
}

const elm = await startElm({
  port: num('ELM_PORT'),
  altPort: num('ELM_ALT_PORT'),
  rateLimit: num('ELM_RATE_LIMIT'),
  windowMs: num('ELM_WINDOW_MS'),
  activationMs: num('ELM_ACTIVATION_MS'),
  streamMaxMs: num('ELM_STREAM_MAX_MS'),
  outboxPollMs: num('ELM_OUTBOX_POLL_MS'),
  serviceVersionRequired: env.ELM_SERVICE_VERSION_REQUIRED === '1',
  tokenLifetimeS: num('ELM_TOKEN_LIFETIME_S'),
  auditMaxLimit: num('ELM_AUDIT_MAX_LIMIT'),
});

const { close, ...described } = elm;
const text = JSON.stringify(described, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text);
console.log(text);

// Stop cleanly so the listening ports and the outbox timer go away with the process.
const stop = (): void => {
  void close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
