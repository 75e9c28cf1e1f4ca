// Starts baobab by hand: `npx node conformance/e2e/independent/baobab/start.ts [ready-file.json]`.
// BAOBAB_* variables switch on other legal choices (see README.md).
import { writeFileSync } from 'node:fs';
import { startBaobab } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const target = await startBaobab({
  port: num(env.BAOBAB_PORT) ?? 4070,
  altPort: num(env.BAOBAB_ALT_PORT) ?? 4071,
  rateLimit: num(env.BAOBAB_RATE_LIMIT),
  windowMs: num(env.BAOBAB_WINDOW_MS),
  serviceVersionRequired: env.BAOBAB_SERVICE_VERSION_REQUIRED === '1',
  tokenTtlSeconds: num(env.BAOBAB_TOKEN_TTL),
  checkpointSignature: env.BAOBAB_CHECKPOINT_SIGNATURE === '1',
  auditNoLink: env.BAOBAB_AUDIT_NO_LINK === '1',
});
const { close: _close, ...shown } = target;
const file = process.argv[2];
// The client secret goes to the ready file only (never to the console).
if (file) writeFileSync(file, JSON.stringify(shown, null, 2));
console.log(
  `baobab on ${target.baseUrl} and ${target.altBaseUrl}; tenant ${target.tenant}${file ? `; details in ${file}` : ''}`,
);
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
