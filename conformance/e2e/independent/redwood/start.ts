// Starts redwood by hand: `npx node conformance/e2e/independent/redwood/start.ts [ready-file]`. Writes the
// addresses, tenants and client credentials as JSON to the ready file (or stdout). REDWOOD_* variables switch
// on other legal choices.
import { writeFileSync } from 'node:fs';
import { startRedwood } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v ? Number(v) : undefined);
const redwood = await startRedwood({
  port: num(env.REDWOOD_PORT),
  altPort: num(env.REDWOOD_ALT_PORT),
  rateLimit: num(env.REDWOOD_RATE_LIMIT),
  windowMs: num(env.REDWOOD_WINDOW_MS),
  tokenTtlS: num(env.REDWOOD_TOKEN_TTL_S),
  readyAfterMs: num(env.REDWOOD_READY_AFTER_MS),
  serviceVersionRequired: env.REDWOOD_SERVICE_VERSION_REQUIRED === '1',
  auditNewestFirst: env.REDWOOD_AUDIT_NEWEST_FIRST === '1',
  webhookBinary: env.REDWOOD_WEBHOOK_BINARY === '1',
  streamFromStart: env.REDWOOD_STREAM_FROM_START === '1',
  strictFields: env.REDWOOD_STRICT_FIELDS === '1',
  logSinceCurrent: env.REDWOOD_LOG_SINCE_CURRENT === '1',
  retryAsOperation: env.REDWOOD_RETRY_AS_OPERATION === '1',
  exactReplay: env.REDWOOD_EXACT_REPLAY === '1',
  aipNames: env.REDWOOD_AIP_NAMES === '1',
  storeRefusals: env.REDWOOD_STORE_REFUSALS === '1',
});
const { close: _close, ...info } = redwood;
const text = JSON.stringify(info, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text);
else console.log(text);
process.on('SIGINT', () => void redwood.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void redwood.close().then(() => process.exit(0)));
