// Starts mulberry by hand: npx node conformance/e2e/independent/mulberry/start.ts [ready-file.json]
// Writes the addresses, tenants and client credentials to the ready file (or prints them).
// MULBERRY_* variables switch on other legal choices:
//   MULBERRY_PORT, MULBERRY_ALT_PORT              fixed ports (default: any free)
//   MULBERRY_RATE_LIMIT=n MULBERRY_WINDOW_MS=ms   GCRA limit and window (default 600 per 60 s)
//   MULBERRY_ACTIVATION_MS=ms                     provisioning -> live delay (default 300)
//   MULBERRY_TOKEN_TTL=s                          token lifetime (default 900)
//   MULBERRY_VERSION_REQUIRED=1                   Service-Version mandatory (400 without it)
//   MULBERRY_UNKNOWN_VERSION_AS_CURRENT=1         an unknown Service-Version answered as 2026-07-01
//   MULBERRY_RELAY_DELAY_MS=ms                    webhook deliveries sent after this delay (an outbox relay)
//   MULBERRY_REDELIVER_SAME_ID=1                  redeliver re-sends the same delivery (same id) instead of a new one
//   MULBERRY_TIME_OFFSET_MIN=60                   times in local time with offset (+01:00)
//   MULBERRY_STORE_REFUSALS=1                     a refused modifying call is stored under its key and replayed
//   MULBERRY_CONNECTIONS_NEWEST_FIRST=1           GET /connections newest first
//   MULBERRY_AUDIT_MAX_LIMIT=n                    largest audit page (default 200; above: 400)
//   MULBERRY_STREAM_MAX_MS=ms                     every stream ended by the server after this long
//   MULBERRY_STREAM_REPLAY_ALL=1                  a stream without a position starts at message 1
//   MULBERRY_STREAM_MULTILINE=1                   pretty-printed JSON over several data: lines
//   MULBERRY_AUDIT_OLDEST_FIRST=1                 audit log oldest first, paged with ?after=
//   MULBERRY_MISSING_TENANT=401|403               a missing tenant header answered 401/403 (default 400)
import { writeFileSync } from 'node:fs';
import { startMulberry } from './server.ts';

const env = process.env;
const num = (v: string | undefined): number | undefined => (v ? Number(v) : undefined);
const m = await startMulberry({
  port: num(env.MULBERRY_PORT),
  altPort: num(env.MULBERRY_ALT_PORT),
  rateLimit: num(env.MULBERRY_RATE_LIMIT),
  windowMs: num(env.MULBERRY_WINDOW_MS),
  activationMs: num(env.MULBERRY_ACTIVATION_MS),
  tokenTtlSeconds: num(env.MULBERRY_TOKEN_TTL),
  versionRequired: env.MULBERRY_VERSION_REQUIRED === '1',
  relayDelayMs: num(env.MULBERRY_RELAY_DELAY_MS),
  redeliverSameId: env.MULBERRY_REDELIVER_SAME_ID === '1',
  timeOffsetMinutes: num(env.MULBERRY_TIME_OFFSET_MIN),
  storeRefusals: env.MULBERRY_STORE_REFUSALS === '1',
  connectionsNewestFirst: env.MULBERRY_CONNECTIONS_NEWEST_FIRST === '1',
  auditMaxLimit: num(env.MULBERRY_AUDIT_MAX_LIMIT),
  streamMaxMs: num(env.MULBERRY_STREAM_MAX_MS),
  streamReplayAll: env.MULBERRY_STREAM_REPLAY_ALL === '1',
  streamMultiline: env.MULBERRY_STREAM_MULTILINE === '1',
  auditOldestFirst: env.MULBERRY_AUDIT_OLDEST_FIRST === '1',
  unknownVersionAsCurrent: env.MULBERRY_UNKNOWN_VERSION_AS_CURRENT === '1',
  missingTenantStatus: env.MULBERRY_MISSING_TENANT === '401' ? 401 : env.MULBERRY_MISSING_TENANT === '403' ? 403 : 400,
});
const { close: _close, ...ready } = m;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(ready, null, 2));
else console.log(JSON.stringify(ready, null, 2));
process.on('SIGINT', () => void m.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void m.close().then(() => process.exit(0)));
