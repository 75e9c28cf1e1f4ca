// Starts acacia by hand: `npx node conformance/e2e/independent/acacia/start.ts [ready-file.json]`.
// ACACIA_* variables switch on other legal choices (see README.md). The ready file holds the addresses,
// tenants and client credentials (sandbox-only fixture values).
import { writeFileSync } from 'node:fs';
import { startAcacia } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const d = await startAcacia({
  port: num(env.ACACIA_PORT),
  altPort: num(env.ACACIA_ALT_PORT),
  rateLimit: num(env.ACACIA_RATE_LIMIT),
  windowMs: num(env.ACACIA_WINDOW_MS),
  tokenTtlSeconds: num(env.ACACIA_TOKEN_TTL_SECONDS),
  activationMs: num(env.ACACIA_ACTIVATION_MS),
  idempotencyTtlMs: num(env.ACACIA_IDEMPOTENCY_TTL_MS),
  redactKeyOnReplay: env.ACACIA_REDACT_KEY_ON_REPLAY === '1',
  serviceVersionRequired: env.ACACIA_SERVICE_VERSION_REQUIRED === '1',
  auditOldestFirst: env.ACACIA_AUDIT_OLDEST_FIRST === '1',
  keyScope: env.ACACIA_KEY_SCOPE === 'client' ? 'client' : 'tenant',
  tenantTiers: env.ACACIA_TENANT_TIERS === '1',
  absoluteServers: env.ACACIA_ABSOLUTE_SERVERS === '1',
  streamMaxMs: num(env.ACACIA_STREAM_MAX_MS),
});
const { close: _close, ...info } = d;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(info, null, 2));
process.stdout.write(`acacia: ${d.baseUrl} (alt ${d.altBaseUrl}), tenant ${d.tenant}\n`);
const shutdown = () => {
  d.close().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
