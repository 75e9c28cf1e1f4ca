// Starts larch by hand: `npx node conformance/e2e/independent/larch/start.ts [ready-file.json]`.
// LARCH_* variables switch on other legal choices (see README.md).
import { writeFileSync } from 'node:fs';
import { startLarch } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v ? Number(v) : undefined);
const larch = await startLarch({
  port: num(env.LARCH_PORT),
  altPort: num(env.LARCH_ALT_PORT),
  rateLimit: num(env.LARCH_RATE_LIMIT),
  windowMs: num(env.LARCH_WINDOW_MS),
  tokenTtlSeconds: num(env.LARCH_TOKEN_TTL),
  activationMs: num(env.LARCH_ACTIVATION_MS),
  retryScheduleMs: env.LARCH_RETRY_SCHEDULE_MS ? env.LARCH_RETRY_SCHEDULE_MS.split(',').map(Number) : undefined,
  serviceVersionRequired: env.LARCH_SERVICE_VERSION_REQUIRED === '1',
  redactKeyOnReplay: env.LARCH_REDACT_KEY_ON_REPLAY === '1',
  auditOldestFirst: env.LARCH_AUDIT_OLDEST_FIRST === '1',
  storeRefusals: env.LARCH_STORE_REFUSALS === '1',
  streamTimeoutMs: num(env.LARCH_STREAM_TIMEOUT_MS),
  productionForbidden: env.LARCH_PRODUCTION_FORBIDDEN === '1',
  relayDelayMs: num(env.LARCH_RELAY_DELAY_MS),
  hal: env.LARCH_HAL === '1',
  pageImpl: env.LARCH_PAGE_IMPL === '1',
  capabilitySet: env.LARCH_CAPABILITY_SET === '1' || env.LARCH_CAPABILITY_SET === 'sorted',
});
const { close: _close, ...info } = larch;
const file = process.argv[2];
// The client secret goes to the ready file (for scripts), never to the console.
if (file) writeFileSync(file, JSON.stringify(info, null, 2));
console.log(
  `larch listening on ${larch.baseUrl} and ${larch.altBaseUrl} (tenant ${larch.tenant}, client ${larch.clientId})`,
);
process.on('SIGINT', () => void larch.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void larch.close().then(() => process.exit(0)));
