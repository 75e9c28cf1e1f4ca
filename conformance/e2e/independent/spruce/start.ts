// Starts spruce by hand: `npx node conformance/e2e/independent/spruce/start.ts [ready-file]`.
// Prints (or writes) the addresses, tenants and client credentials; SPRUCE_* variables switch on other
// legal choices. Stop it with Ctrl-C.
import { writeFileSync } from 'node:fs';
import { type SpruceOptions, startSpruce } from './server.ts';

const env = process.env;
const num = (name: string): number | undefined => (env[name] ? Number(env[name]) : undefined);
const options: SpruceOptions = {
  rateLimit: num('SPRUCE_RATE_LIMIT'),
  windowMs: num('SPRUCE_WINDOW_MS'),
  listLagMs: num('SPRUCE_LIST_LAG_MS'),
  activationMs: num('SPRUCE_ACTIVATION_MS'),
  tokenTtlSeconds: num('SPRUCE_TOKEN_TTL_S'),
  redactSecretOnReplay: env.SPRUCE_REPEAT_SECRET_ON_REPLAY !== '1',
  serviceVersionRequired: env.SPRUCE_SERVICE_VERSION_REQUIRED === '1',
  auditOldestFirst: env.SPRUCE_AUDIT_OLDEST_FIRST === '1',
  changeFeedDelayMs: num('SPRUCE_CHANGE_FEED_DELAY_MS'),
  batchWindowMs: num('SPRUCE_BATCH_WINDOW_MS'),
  missingTenantForbidden: env.SPRUCE_MISSING_TENANT_403 === '1',
  offsetTimes: env.SPRUCE_OFFSET_TIMES === '1',
  forbidUnknownFields: env.SPRUCE_FORBID_UNKNOWN_FIELDS === '1',
  heartbeatMs: num('SPRUCE_HEARTBEAT_MS'),
  streamMaxMs: num('SPRUCE_STREAM_MAX_MS'),
  multiLineData: env.SPRUCE_MULTILINE_DATA === '1',
  binaryWebhooks: env.SPRUCE_BINARY_WEBHOOKS === '1',
  validationPing: env.SPRUCE_VALIDATION_PING === '1',
};
const target = await startSpruce(options);
const { close: _close, ...printable } = target;
const text = JSON.stringify(printable, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text, { mode: 0o600 });
else process.stdout.write(`${text}\n`);
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
