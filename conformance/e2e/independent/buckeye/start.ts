// Starts buckeye by hand: `npx node conformance/e2e/independent/buckeye/start.ts [ready-file.json]`.
// Prints (and writes to the ready file) the addresses, tenants and client credentials as JSON.
// BUCKEYE_* variables switch on other legal choices of the interface's open points:
//   BUCKEYE_PORT, BUCKEYE_ALT_PORT             fixed ports (default: any free ones)
//   BUCKEYE_RATE_LIMIT, BUCKEYE_WINDOW_MS      token bucket size and refill time (default 600 per 60 s)
//   BUCKEYE_TOKEN_TTL                          access-token lifetime, seconds (default 900)
//   BUCKEYE_ACTIVATION_MS                      pending -> enabled delay (default 300)
//   BUCKEYE_SERVICE_VERSION_REQUIRED=1         Service-Version mandatory on authenticated calls
//   BUCKEYE_AUDIT_OLDEST_FIRST=1               audit pages oldest first
//   BUCKEYE_STREAM_FROM_START=1                a stream opened without a position replays everything retained
//   BUCKEYE_CURSOR_OVER_HEADER=1               ?cursor wins over Last-Event-ID
//   BUCKEYE_DENY_UNKNOWN_FIELDS=1              JSON bodies with undeclared fields are refused (serde's deny_unknown_fields)
//   BUCKEYE_REDACT_KEY_ON_REPLAY=1             a replayed webhook registration leaves the signing key out
//   BUCKEYE_RELAY_DELAY_MS=ms                  webhook deliveries leave through an outbox after this delay
//   BUCKEYE_REDELIVER_IN_PLACE=1               a redelivery is one more attempt of the same delivery (same id)
//   BUCKEYE_STREAM_MAX_MS=ms                   an open stream ends after this long (a proxy's limit); clients resume
//   BUCKEYE_STORE_REFUSALS=1                   a refused creation (404, 409) is stored under its key and replayed
//   BUCKEYE_PUBLIC_RATE_LIMIT=1                public routes count against a bucket per caller address
//   BUCKEYE_YAML_ANCHORS=1                     the YAML document shares repeated nodes through anchors and aliases
//   BUCKEYE_SSE_COMPACT=1                      SSE fields without the optional space, id last, data over several lines
//   BUCKEYE_OAI_MEDIA_TYPES=1                  OpenAPI files as application/vnd.oai.openapi+json / vnd.oai.openapi
//   BUCKEYE_SEED_CONNECTIONS=n                 the main tenant starts with n connections (a long-lived tenant)
//   BUCKEYE_SEED_STREAM_CONNECTIONS=n          only the first n of them left messages on the stream (default: all)
//   BUCKEYE_NO_COMPRESSION=1                   answers are never compressed
//   BUCKEYE_KEEP_ALIVE_MS=ms                   idle keep-alive connections closed after this long (default 5000)
//   BUCKEYE_TIME_FORMAT=z                      times as …:28.123000Z instead of chrono's …:28.123000000+00:00
import { writeFileSync } from 'node:fs';
import { httpStyle } from './http-kit.ts';
import { startBuckeye } from './server.ts';
import { timeStyle } from './values.ts';

const env = process.env;
const num = (name: string) => (env[name] ? Number(env[name]) : undefined);
const flag = (name: string) => env[name] === '1';
timeStyle.z = env.BUCKEYE_TIME_FORMAT === 'z';
httpStyle.compress = env.BUCKEYE_NO_COMPRESSION !== '1';

const handle = await startBuckeye(
  {
    rateLimit: num('BUCKEYE_RATE_LIMIT'),
    windowMs: num('BUCKEYE_WINDOW_MS'),
    tokenTtlSeconds: num('BUCKEYE_TOKEN_TTL'),
    activationMs: num('BUCKEYE_ACTIVATION_MS'),
    requireServiceVersion: flag('BUCKEYE_SERVICE_VERSION_REQUIRED'),
    auditOldestFirst: flag('BUCKEYE_AUDIT_OLDEST_FIRST'),
    streamFromStart: flag('BUCKEYE_STREAM_FROM_START'),
    cursorOverHeader: flag('BUCKEYE_CURSOR_OVER_HEADER'),
    denyUnknownFields: flag('BUCKEYE_DENY_UNKNOWN_FIELDS'),
    redactKeyOnReplay: flag('BUCKEYE_REDACT_KEY_ON_REPLAY'),
    relayDelayMs: num('BUCKEYE_RELAY_DELAY_MS'),
    redeliverInPlace: flag('BUCKEYE_REDELIVER_IN_PLACE'),
    streamMaxMs: num('BUCKEYE_STREAM_MAX_MS'),
    storeRefusals: flag('BUCKEYE_STORE_REFUSALS'),
    publicRateLimit: flag('BUCKEYE_PUBLIC_RATE_LIMIT'),
    yamlAnchors: flag('BUCKEYE_YAML_ANCHORS'),
    sseCompact: flag('BUCKEYE_SSE_COMPACT'),
    oaiMediaTypes: flag('BUCKEYE_OAI_MEDIA_TYPES'),
    seedConnections: num('BUCKEYE_SEED_CONNECTIONS'),
    seedStreamConnections: num('BUCKEYE_SEED_STREAM_CONNECTIONS'),
    keepAliveMs: num('BUCKEYE_KEEP_ALIVE_MS'),
  },
  [num('BUCKEYE_PORT') ?? 0, num('BUCKEYE_ALT_PORT') ?? 0],
);

// The handle without its close(): what a client of this deployment needs to know.
const { close: _close, ...shown } = handle;
console.log(JSON.stringify(shown, null, 2));
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(shown));

// Stop cleanly on Ctrl-C or a service manager's TERM: timers cleared, sockets (open streams too) closed.
const stop = () => void handle.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
