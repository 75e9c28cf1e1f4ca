// Starts oak by hand:
//   npx node conformance/e2e/independent/oak/start.ts [/tmp/oak.json]
// The ready file (if named) receives the target as JSON, client secret included (mode 0600); stdout shows the
// rest. Then, from /work/main:
//   export NCS_CLIENT_SECRET=$(node -p "require('/tmp/oak.json').clientSecret")
//   npm run -s ncs -- conformance run --base-url <baseUrl> --alt-base-url <altBaseUrl> --tenant laravel-bistro \
//     --other-tenant artisan-bakery --foreign-tenant eloquent-eatery --client-id <clientId> \
//     --deployment-profile conformance/e2e/independent/oak/oak-profile.json
//
// OAK_* variables switch on other legal choices (see README.md):
//   OAK_PORT, OAK_ALT_PORT            fixed ports (default: any free port)
//   OAK_RATE_LIMIT, OAK_WINDOW_MS     sliding window per token (default 600 calls / 60000 ms)
//   OAK_ENABLE_AFTER_MS               draft -> enabled after this delay (default 300)
//   OAK_QUEUE_DELAY_MS                webhook deliveries wait for the queue worker (default 0)
//   OAK_STREAM_IDLE_SECONDS           a stream without messages is ended after this (default 30)
//   OAK_TOKEN_TTL_SECONDS             access token lifetime (default 900)
//   OAK_SERVICE_VERSION_REQUIRED=1    Service-Version mandatory (default optional)
//   OAK_STRICT_BODIES=1               unknown body fields refused (default ignored)
//   OAK_AUDIT_OLDEST_FIRST=1          audit log oldest first (default newest first)
//   OAK_AUDIT_MAX_PER_PAGE            per-page cap of the audit log (default 100)
//   OAK_AUDIT_LIMIT_POLICY=refuse     a limit above the cap answered 400 (default: clamped)
//   OAK_KEY_SCOPE=client              idempotency keys per client, tenant part of the content (default per tenant)
//   OAK_ESCAPE_SLASHES=1              PHP json_encode slashes: every / written \/ (default off)
import { writeFileSync } from 'node:fs';
import { startOak } from './server.ts';

const env = process.env;
const num = (name: string) => (env[name] ? Number(env[name]) : undefined);
const target = await startOak({
  port: num('OAK_PORT'),
  altPort: num('OAK_ALT_PORT'),
  rateLimit: num('OAK_RATE_LIMIT'),
  windowMs: num('OAK_WINDOW_MS'),
  enableAfterMs: num('OAK_ENABLE_AFTER_MS'),
  queueDelayMs: num('OAK_QUEUE_DELAY_MS'),
  streamIdleSeconds: num('OAK_STREAM_IDLE_SECONDS'),
  tokenTtlSeconds: num('OAK_TOKEN_TTL_SECONDS'),
  requireServiceVersion: env.OAK_SERVICE_VERSION_REQUIRED === '1',
  strictBodies: env.OAK_STRICT_BODIES === '1',
  auditLimitPolicy: env.OAK_AUDIT_LIMIT_POLICY === 'refuse' ? 'refuse' : 'clamp',
  keyScope: env.OAK_KEY_SCOPE === 'client' ? 'client' : 'tenant',
  escapeSlashes: env.OAK_ESCAPE_SLASHES === '1',
  auditOldestFirst: env.OAK_AUDIT_OLDEST_FIRST === '1',
  auditMaxPerPage: num('OAK_AUDIT_MAX_PER_PAGE'),
});
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(target, null, 2), { mode: 0o600 });
const { clientSecret: _secret, close: _close, ...shown } = target;
console.log(JSON.stringify(shown, null, 2));
const stop = () => void target.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
