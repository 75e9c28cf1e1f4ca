// Starts chestnut by hand: `npx node conformance/e2e/independent/chestnut/start.ts [ready-file.json]`.
// CHESTNUT_* variables switch on other legal choices (see README.md).
import { writeFileSync } from 'node:fs';
import { startChestnut } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const target = await startChestnut({
  port: num(env.CHESTNUT_PORT),
  altPort: num(env.CHESTNUT_ALT_PORT),
  rateLimit: num(env.CHESTNUT_RATE_LIMIT),
  windowMs: num(env.CHESTNUT_WINDOW_MS),
  activationMs: num(env.CHESTNUT_ACTIVATION_MS),
  tokenTtlSeconds: num(env.CHESTNUT_TOKEN_TTL_SECONDS),
  redactKeyOnReplay: env.CHESTNUT_REDACT_KEY_ON_REPLAY === '1',
  requireServiceVersion: env.CHESTNUT_REQUIRE_SERVICE_VERSION === '1',
  auditMaxLimit: num(env.CHESTNUT_AUDIT_MAX_LIMIT),
  auditNewestFirst: env.CHESTNUT_AUDIT_NEWEST_FIRST === '1',
  auditNoLink: env.CHESTNUT_AUDIT_NO_LINK === '1',
  relayDelayMs: num(env.CHESTNUT_RELAY_DELAY_MS),
  auditDeclareCanonicalization: env.CHESTNUT_AUDIT_CANONICALIZATION === '1',
  strictQuery: env.CHESTNUT_STRICT_QUERY === '1',
  missingTenant: env.CHESTNUT_MISSING_TENANT_403 === '1' ? 'forbidden' : 'invalid',
});
const { close: _close, ...printable } = target;
const file = process.argv[2];
if (file !== undefined) writeFileSync(file, JSON.stringify(printable, null, 2));
process.stdout.write(`chestnut on ${target.baseUrl} and ${target.altBaseUrl} (client ${target.clientId})\n`);
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
