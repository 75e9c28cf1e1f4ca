// Starts sassafras by hand: `npx node conformance/e2e/independent/sassafras/start.ts [file.json]` prints (and
// writes) the addresses and credentials; SASSAFRAS_* variables switch on other legal choices.
import { writeFileSync } from 'node:fs';
import { startSassafras } from './server.ts';

const env = process.env;
const num = (name: string) => (env[name] ? Number(env[name]) : undefined);

const d = await startSassafras({
  port: num('SASSAFRAS_PORT'),
  altPort: num('SASSAFRAS_ALT_PORT'),
  rateLimit: num('SASSAFRAS_RATE_LIMIT'),
  windowMs: num('SASSAFRAS_WINDOW_MS'),
  tokenLifetimeSec: num('SASSAFRAS_TOKEN_LIFETIME_SEC'),
  activationMs: num('SASSAFRAS_ACTIVATION_MS'),
  requireServiceVersion: env.SASSAFRAS_SERVICE_VERSION_REQUIRED === '1',
  redactKeyOnReplay: env.SASSAFRAS_REDACT_KEY_ON_REPLAY === '1',
  ignoreUnknownFields: env.SASSAFRAS_IGNORE_UNKNOWN_FIELDS === '1',
  strictVersions: env.SASSAFRAS_STRICT_VERSIONS === '1',
  auditNewestFirst: env.SASSAFRAS_AUDIT_NEWEST_FIRST === '1',
});
const { close: _close, ...info } = d;
const text = JSON.stringify(info, null, 2);
console.log(text);
if (process.argv[2]) writeFileSync(process.argv[2], text);
process.on('SIGINT', () => void d.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void d.close().then(() => process.exit(0)));
