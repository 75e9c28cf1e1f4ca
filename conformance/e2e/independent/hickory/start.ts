// Starts hickory by hand and prints (and, given a path, writes) the addresses, tenants and client credentials:
//
//   npx node conformance/e2e/independent/hickory/start.ts /tmp/hickory.json
//
// Then, from /work/main, with the secret in the environment (never in a flag):
//
//   NCS_CLIENT_SECRET=$(jq -r .clientSecret /tmp/hickory.json) npm run -s ncs -- conformance run \
//     --base-url $(jq -r .baseUrl /tmp/hickory.json) --alt-base-url $(jq -r .altBaseUrl /tmp/hickory.json) \
//     --tenant hickory-acme --other-tenant hickory-globex --foreign-tenant hickory-initech \
//     --client-id $(jq -r .clientId /tmp/hickory.json) --profile full \
//     --deployment-profile conformance/e2e/independent/hickory/hickory-profile.json
//
// HICKORY_* variables switch on hickory's other legal choices (README.md lists them):
//   HICKORY_RATE_LIMIT=n HICKORY_WINDOW_MS=ms   calls per window per access and tenant (1000 / 60000)
//   HICKORY_TOKEN_TTL_S=s                       token lifetime (600)
//   HICKORY_ACTIVATION_MS=ms                    created -> active (300)
//   HICKORY_VERSION_REQUIRED=1                  Service-Version mandatory
//   HICKORY_TIME_OFFSET_MIN=n                   date-times at a UTC offset (+02:00 for 120)
//   HICKORY_STRICT_QUERY=1                      unknown query parameters refused (400)
//   HICKORY_STRICT_FILTER_VALUES=1              unknown filter values refused (400)
//   HICKORY_CASE_INSENSITIVE_FILTERS=1          filters match in any letter case
//   HICKORY_SUSPEND_AFTER_MS=ms                 active -> suspended after ms
//   HICKORY_GATEWAY_HEADERS=1                   Kong's via, x-kong-request-id, latency headers
//   HICKORY_DUPLICATE_DELIVERIES=1              every delivery sent twice (at least once)
//   HICKORY_RELAY_DELAY_MS=ms                   webhook outbox relayed after ms
//   HICKORY_STREAM_FROM_START=1                 a stream without cursor starts at the first message
//   HICKORY_STREAM_MAX_MS=ms                    the gateway ends a stream after ms
//   HICKORY_AUDIT_OLDEST_FIRST=1                audit log oldest first
//   HICKORY_AUDIT_LINKS_ONLY=1                  audit paging only as data.links.next
import { writeFileSync } from 'node:fs';
import { startHickory } from './server.ts';

const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const flag = (name: string) => process.env[name] === '1';

const deployment = await startHickory({
  rateLimit: num('HICKORY_RATE_LIMIT'),
  windowMs: num('HICKORY_WINDOW_MS'),
  tokenTtlS: num('HICKORY_TOKEN_TTL_S'),
  activationMs: num('HICKORY_ACTIVATION_MS'),
  versionRequired: flag('HICKORY_VERSION_REQUIRED'),
  timeOffsetMin: num('HICKORY_TIME_OFFSET_MIN'),
  strictQuery: flag('HICKORY_STRICT_QUERY'),
  suspendAfterMs: num('HICKORY_SUSPEND_AFTER_MS'),
  gatewayHeaders: flag('HICKORY_GATEWAY_HEADERS'),
  duplicateDeliveries: flag('HICKORY_DUPLICATE_DELIVERIES'),
  relayDelayMs: num('HICKORY_RELAY_DELAY_MS'),
  streamFromStart: flag('HICKORY_STREAM_FROM_START'),
  streamMaxMs: num('HICKORY_STREAM_MAX_MS'),
  caseInsensitiveFilters: flag('HICKORY_CASE_INSENSITIVE_FILTERS'),
  strictFilterValues: flag('HICKORY_STRICT_FILTER_VALUES'),
  auditOldestFirst: flag('HICKORY_AUDIT_OLDEST_FIRST'),
  auditLinksOnly: flag('HICKORY_AUDIT_LINKS_ONLY'),
});
const { close: _close, ...shown } = deployment;
const text = JSON.stringify(shown, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text);
console.log(text);
const stop = () => void deployment.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
