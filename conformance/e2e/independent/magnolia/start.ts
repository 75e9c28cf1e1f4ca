// Starts magnolia by hand: npx node conformance/e2e/independent/magnolia/start.ts [ready-file.json]
// Writes the addresses, tenants and client credentials to the ready file (or prints them), and keeps
// running until interrupted. MAGNOLIA_* variables switch on other legal choices:
//   MAGNOLIA_PORT, MAGNOLIA_ALT_PORT            fixed ports (default: any free ones)
//   MAGNOLIA_RATE_LIMIT=n MAGNOLIA_WINDOW_MS=ms calls per fixed window (default 1000 per 60000 ms)
//   MAGNOLIA_TOKEN_TTL=s                        token lifetime, expires_in (default 86400, Auth0's M2M default)
//   MAGNOLIA_RETRY_STEP_MS=ms                   linear retry step of failed deliveries (default 60000)
//   MAGNOLIA_ACTIVATION_MS=ms                   pending -> active delay of a connection (default 400)
//   MAGNOLIA_AUDIT_OLDEST_FIRST=1               audit pages oldest first (default newest first)
//   MAGNOLIA_STRICT_VERSION=1                   an unknown Service-Version is refused with 400
//   MAGNOLIA_REPLAY_ORIGINAL_REQUEST_ID=1       a replay repeats the original meta.requestId
//   MAGNOLIA_REQUIRE_AUDIENCE=1                 /oauth/token refuses a request naming no audience (403)
//   MAGNOLIA_HASURA_PAYLOADS=1                  Hasura event-trigger payloads on the stream and in webhooks
import { writeFileSync } from 'node:fs';
import { type MagnoliaOptions, startMagnolia } from './server.ts';

const env = process.env;
const num = (name: string): number | undefined => (env[name] ? Number(env[name]) : undefined);
const flag = (name: string): boolean => env[name] === '1' || env[name] === 'true';

const options: MagnoliaOptions = {
  port: num('MAGNOLIA_PORT'),
  altPort: num('MAGNOLIA_ALT_PORT'),
  rateLimit: num('MAGNOLIA_RATE_LIMIT'),
  windowMs: num('MAGNOLIA_WINDOW_MS'),
  tokenTtl: num('MAGNOLIA_TOKEN_TTL'),
  retryStepMs: num('MAGNOLIA_RETRY_STEP_MS'),
  activationMs: num('MAGNOLIA_ACTIVATION_MS'),
  auditOldestFirst: flag('MAGNOLIA_AUDIT_OLDEST_FIRST'),
  strictVersion: flag('MAGNOLIA_STRICT_VERSION'),
  replayOriginalRequestId: flag('MAGNOLIA_REPLAY_ORIGINAL_REQUEST_ID'),
  hasuraPayloads: flag('MAGNOLIA_HASURA_PAYLOADS'),
  requireAudience: flag('MAGNOLIA_REQUIRE_AUDIENCE'),
};

const m = await startMagnolia(options);
const ready = {
  baseUrl: m.baseUrl,
  altBaseUrl: m.altBaseUrl,
  tokenUrl: m.tokenUrl,
  tenant: m.tenant,
  otherTenant: m.otherTenant,
  foreignTenant: m.foreignTenant,
  clientId: m.clientId,
  // A sandbox fixture secret; written to the ready file so a local run can export it as NCS_CLIENT_SECRET.
  clientSecret: m.clientSecret,
};
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(ready, null, 2));
else console.log(JSON.stringify({ ...ready, clientSecret: '(see server.ts)' }, null, 2));
console.error(`magnolia listening on ${m.baseUrl} and ${m.altBaseUrl}`);

const stop = (): void => {
  m.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
