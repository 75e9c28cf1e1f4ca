// Starts willow by hand: npx node conformance/e2e/independent/willow/start.ts [ready-file.json]
// WILLOW_* variables switch on other legal choices (see README.md). The ready file holds the addresses and
// credentials for a kit run; the secret is printed to that file only, never to the console.
import { writeFileSync } from 'node:fs';
import { startWillow } from './server.ts';

const env = process.env;
const num = (name: string): number | undefined => (env[name] === undefined ? undefined : Number(env[name]));
const flag = (name: string): boolean => env[name] === '1';

const h = await startWillow({
  port: num('WILLOW_PORT') ?? 0,
  altPort: num('WILLOW_ALT_PORT') ?? 0,
  rateLimit: num('WILLOW_RATE_LIMIT'),
  windowMs: num('WILLOW_WINDOW_MS'),
  tokenTtlSeconds: num('WILLOW_TOKEN_TTL'),
  activationMs: num('WILLOW_ACTIVATION_MS'),
  strictVersion: flag('WILLOW_STRICT_VERSION'),
  requireVersion: flag('WILLOW_REQUIRE_VERSION'),
  duplicateDeliveries: flag('WILLOW_DUPLICATE_DELIVERY'),
  auditNewestFirst: flag('WILLOW_AUDIT_NEWEST_FIRST'),
  listLagMs: num('WILLOW_LIST_LAG_MS'),
  streamMaxMs: num('WILLOW_STREAM_MAX_MS'),
  auditMaxPage: num('WILLOW_AUDIT_MAX_PAGE'),
  rawFingerprint: flag('WILLOW_RAW_FINGERPRINT'),
  honoPaths: flag('WILLOW_HONO_PATHS'),
  utcOffsetMinutes: num('WILLOW_UTC_OFFSET_MINUTES'),
  streamFromStart: flag('WILLOW_STREAM_FROM_START'),
  keyOnlyWhereRequired: flag('WILLOW_KEY_ONLY_WHERE_REQUIRED'),
  publishedServers: flag('WILLOW_PUBLISHED_SERVERS'),
  storeRefusals: flag('WILLOW_STORE_REFUSALS'),
  flatDeliveryLog: flag('WILLOW_FLAT_DELIVERY_LOG'),
  keyScopeClient: flag('WILLOW_KEY_SCOPE_CLIENT'),
  proofLabels: flag('WILLOW_PROOF_LABELS'),
  sandboxOnly: flag('WILLOW_SANDBOX_ONLY'),
  noMetadata: flag('WILLOW_NO_METADATA'),
  strictQuery: flag('WILLOW_STRICT_QUERY'),
  validateFirst: flag('WILLOW_VALIDATE_FIRST'),
  refuseAhead: flag('WILLOW_REFUSE_AHEAD'),
});
const { close: _close, ...info } = h;
const file = process.argv[2];
if (file !== undefined) writeFileSync(file, JSON.stringify(info, null, 2));
console.log(
  `willow on ${h.baseUrl} (alternate ${h.altBaseUrl}), tenants ${h.tenant}, ${h.otherTenant}; not released: ${h.foreignTenant}`,
);
const stop = (): void => {
  void h.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
