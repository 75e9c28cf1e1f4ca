// Starts hazel by hand: `npx node conformance/e2e/independent/hazel/start.ts [ready-file.json]`.
// HAZEL_* variables switch on other legal choices (see README.md).
import { writeFileSync } from 'node:fs';
import { startHazel } from './server.ts';

const env = process.env;
const hazel = await startHazel({
  port: env.HAZEL_PORT ? Number(env.HAZEL_PORT) : undefined,
  altPort: env.HAZEL_ALT_PORT ? Number(env.HAZEL_ALT_PORT) : undefined,
  rateLimit: env.HAZEL_RATE_LIMIT ? Number(env.HAZEL_RATE_LIMIT) : undefined,
  windowMs: env.HAZEL_WINDOW_MS ? Number(env.HAZEL_WINDOW_MS) : undefined,
  separateAltWindow: env.HAZEL_SEPARATE_ALT_WINDOW === '1',
  versionRequired:
    env.HAZEL_VERSION_REQUIRED === 'all' ? 'all' : env.HAZEL_VERSION_REQUIRED === '1' ? 'authenticated' : 'no',
  secretPostOnly: env.HAZEL_BEARER_ONLY_POST === '1',
  streamRetention: env.HAZEL_STREAM_RETENTION ? Number(env.HAZEL_STREAM_RETENTION) : undefined,
  recordRefusals: env.HAZEL_RECORD_REFUSALS === 'all' ? 'all' : env.HAZEL_RECORD_REFUSALS === '1' ? 'decided' : 'none',
  zoneOffsetMinutes: env.HAZEL_ZONE_OFFSET_MINUTES ? Number(env.HAZEL_ZONE_OFFSET_MINUTES) : undefined,
  anonymousRate: env.HAZEL_ANONYMOUS_RATE === '1',
  pingOnRegister: env.HAZEL_PING_ON_REGISTER === '1',
  springPages: env.HAZEL_SPRING_PAGES === '1',
  unknownConnector400: env.HAZEL_UNKNOWN_CONNECTOR_400 === '1',
  auditJcs: env.HAZEL_AUDIT_JCS === '1' ? 'sha256' : env.HAZEL_AUDIT_JCS || '',
  strictFields: env.HAZEL_STRICT_FIELDS === '1',
  deliveryLogSinceCurrent: env.HAZEL_DELIVERY_LOG_SINCE_CURRENT === '1',
});
const { state: _state, close: _close, ...info } = hazel;
const text = JSON.stringify(info, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text);
process.stdout.write(`${text}\n`);
const stop = async () => {
  await hazel.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
