// Starts holly by hand: `npx node conformance/e2e/independent/holly/start.ts [out.json]` prints (and writes)
// the addresses, tenants and client credentials. HOLLY_* variables switch on other legal choices.
import { writeFileSync } from 'node:fs';
import { startHolly } from './server.ts';

const env = process.env;
const holly = await startHolly({
  ...(env.HOLLY_RATE_LIMIT ? { rateLimit: Number(env.HOLLY_RATE_LIMIT) } : {}),
  ...(env.HOLLY_WINDOW_MS ? { windowMs: Number(env.HOLLY_WINDOW_MS) } : {}),
  ...(env.HOLLY_ACTIVATION_MS ? { activationMs: Number(env.HOLLY_ACTIVATION_MS) } : {}),
  serviceVersionRequired: env.HOLLY_SERVICE_VERSION_REQUIRED === '1',
  redactKeyOnReplay: env.HOLLY_REDACT_KEY_ON_REPLAY === '1',
  auditHex: env.HOLLY_AUDIT_HEX === '1',
  auditInt64Numbers: env.HOLLY_AUDIT_INT64_NUMBERS === '1',
  resourceNameIds: env.HOLLY_RESOURCE_NAME_IDS === '1',
});
const { close: _close, state: _state, ...handle } = holly;
const out = JSON.stringify(handle, null, 2);
console.log(out);
if (process.argv[2]) writeFileSync(process.argv[2], out);
process.on('SIGINT', () => void holly.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void holly.close().then(() => process.exit(0)));
