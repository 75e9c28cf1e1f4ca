// Starts sycamore by hand: `npx node conformance/e2e/independent/sycamore/start.ts [/tmp/sycamore.json]`.
// Prints (and writes, when a file is named) the addresses, tenants and client credentials, so the kit's CLI can
// be pointed at it with NCS_* variables. SYCAMORE_* variables switch on other legal choices of the team.
import { writeFileSync } from 'node:fs';
import { startSycamore } from './server.ts';

/** The switches of other legal choices, printed by `--help` (each is a row of the README's table too). */
const SWITCHES: [string, string][] = [
  ['SYCAMORE_RATE_LIMIT=n', 'calls per fixed window per token, tenant and environment (default 1000)'],
  ['SYCAMORE_WINDOW_MS=ms', 'length of the rate-limit window (default 60000)'],
  ['SYCAMORE_ACTIVATION_MS=ms', 'delay of pending -> active (default 400)'],
  ['SYCAMORE_AUDIT_PER_PAGE=n', 'audit entries per page when neither per_page nor limit is sent (default 25)'],
  ['SYCAMORE_AUDIT_MAX_PER_PAGE=n', 'largest per_page/limit of the audit log, 400 above it (default 100)'],
  ['SYCAMORE_AUDIT_OLDEST_FIRST=1', 'audit pages oldest first (default newest first)'],
  ['SYCAMORE_SERVICE_VERSION_REQUIRED=1', 'authenticated calls without Service-Version answer 400'],
  ['SYCAMORE_QUEUE_DELAY_MS=ms', 'delay before a queued webhook delivery is sent (default 0)'],
  ['SYCAMORE_REPLAY_REFUSALS=1', 'a key refused after validation (404, 409) replays that refusal'],
  ['SYCAMORE_UNKNOWN_TENANT_404=1', 'a tenant that does not exist answers 404 (one not released: 403)'],
  ['SYCAMORE_STRICT_QUERY=1', 'a query parameter a GET does not take answers 400'],
  ['SYCAMORE_BIND_ISSUED_KEYS=1', 'an issued key serves only the operation it names (else 409)'],
  ['SYCAMORE_CARBON_TIMES=1', 'times as Carbon toIso8601String(): whole seconds, +00:00'],
  ['SYCAMORE_RESEND_SAME_DELIVERY=1', 'a resend sends the same delivery (same id, one more attempt)'],
  ['SYCAMORE_VERSION_GATED_DELIVERY_LOG=1', 'the delivery log answers 404 to Service-Version 2026-06-12'],
];

if (process.argv.includes('--help')) {
  process.stdout.write('usage: npx node conformance/e2e/independent/sycamore/start.ts [target.json]\n\n');
  for (const [name, what] of SWITCHES) process.stdout.write(`  ${name.padEnd(40)} ${what}\n`);
  process.exit(0);
}

const env = process.env;
const num = (name: string): number | undefined => (env[name] ? Number(env[name]) : undefined);

const target = await startSycamore({
  rateLimit: num('SYCAMORE_RATE_LIMIT'),
  windowMs: num('SYCAMORE_WINDOW_MS'),
  activationMs: num('SYCAMORE_ACTIVATION_MS'),
  auditPerPage: num('SYCAMORE_AUDIT_PER_PAGE'),
  auditMaxPerPage: num('SYCAMORE_AUDIT_MAX_PER_PAGE'),
  auditOldestFirst: env.SYCAMORE_AUDIT_OLDEST_FIRST === '1',
  versionGatedDeliveryLog: env.SYCAMORE_VERSION_GATED_DELIVERY_LOG === '1',
  queueDelayMs: num('SYCAMORE_QUEUE_DELAY_MS'),
  replayRefusals: env.SYCAMORE_REPLAY_REFUSALS === '1',
  unknownTenantNotFound: env.SYCAMORE_UNKNOWN_TENANT_404 === '1',
  strictQuery: env.SYCAMORE_STRICT_QUERY === '1',
  resendSameDelivery: env.SYCAMORE_RESEND_SAME_DELIVERY === '1',
  bindIssuedKeys: env.SYCAMORE_BIND_ISSUED_KEYS === '1',
  serviceVersionRequired: env.SYCAMORE_SERVICE_VERSION_REQUIRED === '1',
});

const { state: _state, close: _close, ...shown } = target;
const text = JSON.stringify(shown, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text);
process.stdout.write(`${text}\n`);
process.stdout.write(
  [
    `export NCS_BASE_URL=${target.baseUrl} NCS_ALT_BASE_URL=${target.altBaseUrl}`,
    `export NCS_TENANT=${target.tenant} NCS_OTHER_TENANT=${target.otherTenant} NCS_FOREIGN_TENANT=${target.foreignTenant}`,
    `export NCS_CLIENT_ID=${target.clientId} NCS_CLIENT_SECRET=${target.clientSecret} NCS_TOKEN_URL=${target.tokenUrl}`,
    '',
  ].join('\n'),
);

// Stop cleanly on Ctrl-C so open streams and queued deliveries end.
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
