// Starts laurel by hand: npx node conformance/e2e/independent/laurel/start.ts [ready-file.json]
// Writes the addresses, tenants and client credentials to the ready file (or prints them).
// LAUREL_* variables switch on other legal choices:
//   LAUREL_RATE_LIMIT=n LAUREL_WINDOW_MS=ms   token bucket capacity and the time it takes to refill
//   LAUREL_PROVISION_MS, LAUREL_LIVE_MS       lifecycle timers (requested -> provisioning -> live)
//   LAUREL_SUSPEND_AFTER_MS=ms                live connections become suspended after this long
//   LAUREL_HEARTBEAT_MS=ms                    comment heartbeat of the stream
//   LAUREL_TOKEN_LIFETIME_S=s                 access token lifetime
//   LAUREL_AUDIT_OLDEST_FIRST=1              audit log listed oldest first
//   LAUREL_REDACT_SECRET_ON_REPLAY=1         a replayed registration leaves the signing key out
//   LAUREL_DELIVERY_LOG_SINCE_CURRENT=1      delivery log refused (404) to callers of 2026-06-12
//   LAUREL_KEY_ONLY_WHERE_REQUIRED=1         Idempotency-Key ignored on routes that do not require it
//   LAUREL_IGNORE_EXTRA_FIELDS=1             unknown body fields ignored (not on POST /connections)
//   LAUREL_UNKNOWN_CAPABILITY_NOT_FOUND=1    a capability not in the catalog answers 404 not_found
//   LAUREL_AUDIT_REFUSALS=1                  refused modifying calls recorded in the audit log
//   LAUREL_SSE_MULTILINE=1                   stream payloads pretty-printed over several data: lines
//   LAUREL_STORE_REFUSALS=1                  a key refused by a business rule (404, 409) replays that refusal
//   LAUREL_CASE_INSENSITIVE_FILTERS=1        catalog filters compared case-insensitively
//   LAUREL_PORT, LAUREL_ALT_PORT              fixed ports; LAUREL_CLIENT_SECRET a fixed secret
import { writeFileSync } from 'node:fs';
import { startLaurel } from './server.ts';

const num = (name: string): number | undefined => {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? undefined : Number(raw);
};

const laurel = await startLaurel({
  rateLimit: num('LAUREL_RATE_LIMIT'),
  windowMs: num('LAUREL_WINDOW_MS'),
  provisionAfterMs: num('LAUREL_PROVISION_MS'),
  liveAfterMs: num('LAUREL_LIVE_MS'),
  suspendAfterMs: num('LAUREL_SUSPEND_AFTER_MS'),
  heartbeatMs: num('LAUREL_HEARTBEAT_MS'),
  tokenLifetimeS: num('LAUREL_TOKEN_LIFETIME_S'),
  auditOldestFirst: process.env.LAUREL_AUDIT_OLDEST_FIRST === '1',
  redactSecretOnReplay: process.env.LAUREL_REDACT_SECRET_ON_REPLAY === '1',
  deliveryLogSinceCurrent: process.env.LAUREL_DELIVERY_LOG_SINCE_CURRENT === '1',
  keyOnlyWhereRequired: process.env.LAUREL_KEY_ONLY_WHERE_REQUIRED === '1',
  ignoreExtraFields: process.env.LAUREL_IGNORE_EXTRA_FIELDS === '1',
  unknownCapabilityNotFound: process.env.LAUREL_UNKNOWN_CAPABILITY_NOT_FOUND === '1',
  auditRefusals: process.env.LAUREL_AUDIT_REFUSALS === '1',
  sseMultiline: process.env.LAUREL_SSE_MULTILINE === '1',
  storeRefusals: process.env.LAUREL_STORE_REFUSALS === '1',
  caseInsensitiveFilters: process.env.LAUREL_CASE_INSENSITIVE_FILTERS === '1',
  port: num('LAUREL_PORT'),
  altPort: num('LAUREL_ALT_PORT'),
});
const { state: _state, close: _close, ...handle } = laurel;
const file = process.argv[2];
if (file) writeFileSync(file, `${JSON.stringify(handle, null, 2)}\n`, { mode: 0o600 });
else
  console.log(JSON.stringify({ ...handle, clientSecret: '(set LAUREL_CLIENT_SECRET or use a ready file)' }, null, 2));
console.error(`laurel listening on ${laurel.baseUrl} and ${laurel.altBaseUrl}`);
const stop = () => {
  void laurel.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
