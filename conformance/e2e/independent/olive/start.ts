// Starts olive by hand: npx node conformance/e2e/independent/olive/start.ts [ready-file.json]
// OLIVE_* variables switch on other legal choices:
//   OLIVE_RATE_LIMIT=n OLIVE_WINDOW_MS=ms   token bucket burst and the time it takes to refill
//   OLIVE_TOKEN_LIFETIME_S=s                access token lifetime (default 600)
//   OLIVE_ACTIVATE_MS=ms                    pending -> active after (default 300)
//   OLIVE_RETRY_BASE_MS=ms                  webhook retry base (x4 per retry, 25 % jitter; default 1000)
//   OLIVE_HTTP_405=1                        wrong method: 405 + Allow (default 400 invalid_request + Allow)
//   OLIVE_STRICT_FIELDS=1                   unknown body fields refused (default ignored, as encoding/json does)
//   OLIVE_AUDIT_NEWEST_FIRST=1              audit pages newest first (default oldest first)
//   OLIVE_VERSION_REQUIRED=1                Service-Version required on authenticated calls
//   OLIVE_UTC_OFFSET_MIN=330               times in a host zone (+05:30) instead of UTC
//   OLIVE_KEY_SCOPE_CLIENT=1                idempotency keys scoped per access across tenants
//   OLIVE_SSE_COMPACT=1                     SSE fields without the optional space (data:{…})
//   OLIVE_GO_HTML_ESCAPE=1                  <, >, & escaped as \u003c… in every JSON body (encoding/json)
//   OLIVE_GO_ZERO_VALUES=1                  error.detail/hint "" and meta.replayed false always (no omitempty)
//   OLIVE_STREAM_MAX_MS=ms                  a stream answer ends after this long (WriteTimeout)
//   OLIVE_HEARTBEAT_MS=ms                   stream comment heartbeat (default 15000)
//   OLIVE_KEY_TTL_MS=ms                     idempotency key validity (default 24 h)
//   OLIVE_REDELIVER_SAME_ID=1               a redelivery re-runs the logged delivery (same id)
//   OLIVE_CONNECTIONS_NEWEST_FIRST=1        GET /connections newest first
//   OLIVE_SSE_NO_EVENT_FIELD=1              stream messages without an event: field
//   OLIVE_AUDIT_OPAQUE_CURSOR=1             audit pages by data.nextCursor (?cursor=) only
//   OLIVE_MISSING_TENANT_401=1              a missing tenant header answered 401 (default 403)
//   OLIVE_UNKNOWN_TENANT_404=1              a tenant nobody knows answered 404 not_found (default 403)
//   OLIVE_PER_TENANT_IDS=1                  connection ids counted per tenant (tenants share id values)
//   OLIVE_GLOBAL_CHAIN=1                    one audit chain for the service, read per tenant
//   OLIVE_PROBLEM_JSON=1                    errors as application/problem+json (RFC 9457 members beside the envelope)
//   OLIVE_STREAM_SEQ_START=n                first stream number (default 1)
//   OLIVE_NESTED_WEBHOOK=1                  registration answers {webhook: {…}, signingKey}
//   OLIVE_SQLITE_MILLIS=1                   lists give createdAt in milliseconds (creation answers: nanoseconds)
//   OLIVE_PORT, OLIVE_ALT_PORT, OLIVE_CLIENT_SECRET
import { writeFileSync } from 'node:fs';
import { startOlive } from './server.ts';

const num = (name: string): number | undefined => {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? undefined : Number(raw);
};
const flag = (name: string): boolean => process.env[name] === '1';

const olive = await startOlive({
  rateLimit: num('OLIVE_RATE_LIMIT'),
  windowMs: num('OLIVE_WINDOW_MS'),
  tokenLifetimeS: num('OLIVE_TOKEN_LIFETIME_S'),
  activateAfterMs: num('OLIVE_ACTIVATE_MS'),
  retryBaseMs: num('OLIVE_RETRY_BASE_MS'),
  http405: flag('OLIVE_HTTP_405'),
  strictFields: flag('OLIVE_STRICT_FIELDS'),
  auditNewestFirst: flag('OLIVE_AUDIT_NEWEST_FIRST'),
  versionRequired: flag('OLIVE_VERSION_REQUIRED'),
  utcOffsetMinutes: num('OLIVE_UTC_OFFSET_MIN'),
  keyScopeClient: flag('OLIVE_KEY_SCOPE_CLIENT'),
  sseCompact: flag('OLIVE_SSE_COMPACT'),
  goHtmlEscape: flag('OLIVE_GO_HTML_ESCAPE'),
  goZeroValues: flag('OLIVE_GO_ZERO_VALUES'),
  streamMaxMs: num('OLIVE_STREAM_MAX_MS'),
  heartbeatMs: num('OLIVE_HEARTBEAT_MS'),
  keyTtlMs: num('OLIVE_KEY_TTL_MS'),
  redeliverSameId: flag('OLIVE_REDELIVER_SAME_ID'),
  connectionsNewestFirst: flag('OLIVE_CONNECTIONS_NEWEST_FIRST'),
  sseNoEventField: flag('OLIVE_SSE_NO_EVENT_FIELD'),
  auditOpaqueCursor: flag('OLIVE_AUDIT_OPAQUE_CURSOR'),
  missingTenant401: flag('OLIVE_MISSING_TENANT_401'),
  unknownTenant404: flag('OLIVE_UNKNOWN_TENANT_404'),
  perTenantIds: flag('OLIVE_PER_TENANT_IDS'),
  globalChain: flag('OLIVE_GLOBAL_CHAIN'),
  problemJson: flag('OLIVE_PROBLEM_JSON'),
  streamSeqStart: num('OLIVE_STREAM_SEQ_START'),
  nestedWebhook: flag('OLIVE_NESTED_WEBHOOK'),
  sqliteMillis: flag('OLIVE_SQLITE_MILLIS'),
  port: num('OLIVE_PORT'),
  altPort: num('OLIVE_ALT_PORT'),
  clientSecret: process.env.OLIVE_CLIENT_SECRET || undefined,
});
const { close: _close, ...ready } = olive;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(ready, null, 2));
else console.log(JSON.stringify(ready, null, 2));
process.on('SIGINT', () => void olive.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void olive.close().then(() => process.exit(0)));
