// Starts linden by hand: npx node conformance/e2e/independent/linden/start.ts [ready-file.json]
// Writes the addresses, tenants and client credentials to the ready file (or prints them).
// LINDEN_* variables switch on other legal choices:
//   LINDEN_ACCESS_LIMIT=n LINDEN_TENANT_LIMIT=n LINDEN_WINDOW_MS=ms   sliding windows (default 600 / 1200 per 60 s)
//   LINDEN_RETRY_BASE_MS=ms LINDEN_MAX_RETRIES=n                      delivery backoff (default 1000 ms, 4 retries)
//   LINDEN_TOKEN_TTL_S=s                                              access token lifetime (default 300)
//   LINDEN_LIVE_AFTER_MS=ms                                           provisioning -> live
//   LINDEN_SERVICE_VERSION_REQUIRED=1                                 authenticated calls without Service-Version: 400
//   LINDEN_AUDIT_NEWEST_FIRST=1                                       audit log newest first, keyset ?before=
//   LINDEN_NUMERIC_IDS=1                                              receiver and delivery ids as JSON numbers
//   LINDEN_AUDIT_PAGING=next-after LINDEN_AUDIT_MAX_LIMIT=n           bare nextAfter/nextBefore keyset; page size cap
//   LINDEN_AUDIT_SNAKE_CASE=1                                         audit entries in snake_case
//   LINDEN_STRICT_QUERY=1                                             unknown query parameters: 400
//   LINDEN_STREAM_MAX_MS=ms                                           every stream response ends after this long
//   LINDEN_KEY_TTL_MS=ms                                              idempotency key validity (default 48 h)
//   LINDEN_TOKEN_AUTH=client_secret_post                              client authentication methods (comma-separated)
//   LINDEN_CAPABILITY_LIST=set|unique                                 repeated capabilities merged (set) or refused
//   LINDEN_PYTHON_TIMES=1                                             times as 2026-07-01T08:00:00.123000+00:00
//   LINDEN_REQUEUE_SAME_MESSAGE=1                                     a requeue re-sends the same message id
//   LINDEN_REFUSE_CURSOR_AHEAD=1                                      a cursor beyond the newest message: 400
//   LINDEN_DELIVERY_DELAY_MS=ms                                       queue latency before a first delivery attempt
//   LINDEN_REFUSE_UNKNOWN_VERSION=1                                   an unknown Service-Version: 400
//   LINDEN_PORT, LINDEN_ALT_PORT, LINDEN_CLIENT_SECRET                fixed ports and secret
import { writeFileSync } from 'node:fs';
import { startLinden } from './server.ts';

const num = (name: string): number | undefined => {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? undefined : Number(raw);
};

const flag = (name: string): boolean => process.env[name] === '1';

const linden = await startLinden({
  accessLimit: num('LINDEN_ACCESS_LIMIT'),
  tenantLimit: num('LINDEN_TENANT_LIMIT'),
  windowMs: num('LINDEN_WINDOW_MS'),
  retryBaseMs: num('LINDEN_RETRY_BASE_MS'),
  maxRetries: num('LINDEN_MAX_RETRIES'),
  tokenTtlSeconds: num('LINDEN_TOKEN_TTL_S'),
  liveAfterMs: num('LINDEN_LIVE_AFTER_MS'),
  serviceVersionRequired: flag('LINDEN_SERVICE_VERSION_REQUIRED'),
  auditNewestFirst: flag('LINDEN_AUDIT_NEWEST_FIRST'),
  numericIds: flag('LINDEN_NUMERIC_IDS'),
  auditPaging: process.env.LINDEN_AUDIT_PAGING === 'next-after' ? 'next-after' : 'link',
  auditMaxLimit: num('LINDEN_AUDIT_MAX_LIMIT'),
  auditSnakeCase: flag('LINDEN_AUDIT_SNAKE_CASE'),
  strictQuery: flag('LINDEN_STRICT_QUERY'),
  streamMaxMs: num('LINDEN_STREAM_MAX_MS'),
  keyTtlMs: num('LINDEN_KEY_TTL_MS'),
  tokenAuthMethods: process.env.LINDEN_TOKEN_AUTH
    ? (process.env.LINDEN_TOKEN_AUTH.split(',') as ('client_secret_basic' | 'client_secret_post')[])
    : undefined,
  capabilityList: (process.env.LINDEN_CAPABILITY_LIST as 'list' | 'set' | 'unique' | undefined) || undefined,
  pythonTimes: flag('LINDEN_PYTHON_TIMES'),
  requeueSameMessage: flag('LINDEN_REQUEUE_SAME_MESSAGE'),
  refuseCursorAhead: flag('LINDEN_REFUSE_CURSOR_AHEAD'),
  deliveryDelayMs: num('LINDEN_DELIVERY_DELAY_MS'),
  refuseUnknownVersion: flag('LINDEN_REFUSE_UNKNOWN_VERSION'),
  clientSecret: process.env.LINDEN_CLIENT_SECRET || undefined,
  port: num('LINDEN_PORT'),
  altPort: num('LINDEN_ALT_PORT'),
});
const { state: _state, close: _close, ...ready } = linden;
const text = JSON.stringify(ready, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text);
else console.log(text);
process.on('SIGINT', () => void linden.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void linden.close().then(() => process.exit(0)));
