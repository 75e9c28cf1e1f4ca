// Starts kapok by hand: `npx node conformance/e2e/independent/kapok/start.ts [ready-file]`. KAPOK_* variables
// switch on other legal choices; the ready file (JSON) gets the addresses, tenants and client credentials.
import { writeFileSync } from 'node:fs';
import { startKapok } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v ? Number(v) : undefined);
const k = await startKapok({
  port: num(env.KAPOK_PORT) ?? 0,
  altPort: num(env.KAPOK_ALT_PORT) ?? 0,
  rateLimit: num(env.KAPOK_RATE_LIMIT),
  windowMs: num(env.KAPOK_WINDOW_MS),
  liveAfterMs: num(env.KAPOK_LIVE_AFTER_MS),
  tokenTtlSeconds: num(env.KAPOK_TOKEN_TTL),
  auditOldestFirst: env.KAPOK_AUDIT_OLDEST_FIRST === '1',
  redactKeyOnReplay: env.KAPOK_REDACT_KEY_ON_REPLAY === '1',
  auditPageSize: num(env.KAPOK_AUDIT_PAGE_SIZE),
  deliveryPageSize: num(env.KAPOK_DELIVERY_PAGE_SIZE),
  missingTenant401: env.KAPOK_MISSING_TENANT_401 === '1',
  strictServiceVersion: env.KAPOK_STRICT_SERVICE_VERSION === '1',
  cursorWins: env.KAPOK_CURSOR_WINS === '1',
  streamMaxMs: num(env.KAPOK_STREAM_MAX_MS),
  serviceVersionRequired: env.KAPOK_SERVICE_VERSION_REQUIRED === '1',
  replayRefusals: env.KAPOK_REPLAY_REFUSALS === '1',
  keyScopeClient: env.KAPOK_KEY_SCOPE_CLIENT === '1',
  strictBodies: env.KAPOK_STRICT_BODIES === '1',
  unknownConnectorDecision: env.KAPOK_UNKNOWN_CONNECTOR_DECISION === '1',
  log: env.KAPOK_LOG === '1' ? (line) => process.stderr.write(`${line}\n`) : undefined,
});
const { close: _c, ...handle } = k;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(handle, null, 2));
process.stdout.write(
  `kapok on ${k.baseUrl} and ${k.altBaseUrl} (tenants ${k.tenant}, ${k.otherTenant}; ${k.foreignTenant} not released)\n`,
);
process.on('SIGINT', () => void k.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void k.close().then(() => process.exit(0)));
