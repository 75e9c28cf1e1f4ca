// Starts hornbeam by hand: `npx node conformance/e2e/independent/hornbeam/start.ts [ready-file]`.
// HORNBEAM_* variables switch on other legal choices (see README.md).
import { writeFileSync } from 'node:fs';
import { startHornbeam } from './server.ts';

const env = process.env;
const num = (name: string) => (env[name] ? Number(env[name]) : undefined);
const h = await startHornbeam({
  port: num('HORNBEAM_PORT') ?? 4620,
  altPort: num('HORNBEAM_ALT_PORT') ?? 4621,
  rateLimit: num('HORNBEAM_RATE_LIMIT'),
  windowMs: num('HORNBEAM_WINDOW_MS'),
  publicRateLimit: num('HORNBEAM_PUBLIC_RATE_LIMIT'),
  tokenBucket: env.HORNBEAM_TOKEN_BUCKET === '1',
  streamLifetimeMs: num('HORNBEAM_STREAM_LIFETIME_MS'),
  heartbeatMs: num('HORNBEAM_HEARTBEAT_MS'),
  tokenTtlSeconds: num('HORNBEAM_TOKEN_TTL'),
  serviceVersionRequired: env.HORNBEAM_SERVICE_VERSION_REQUIRED === '1',
  tenantStreams: env.HORNBEAM_TENANT_STREAMS === '1',
  auditMaxLimit: num('HORNBEAM_AUDIT_MAX_LIMIT'),
  queueDelayMs: num('HORNBEAM_QUEUE_DELAY_MS'),
});
const { close: _close, state: _state, ...info } = h;
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(info, null, 2));
console.log(`hornbeam on ${h.baseUrl} and ${h.altBaseUrl}; client ${h.clientId}, tenant ${h.tenant}`);
process.on('SIGINT', () => void h.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void h.close().then(() => process.exit(0)));
