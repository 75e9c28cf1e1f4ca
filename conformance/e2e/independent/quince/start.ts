// Starts quince by hand: `npx node conformance/e2e/independent/quince/start.ts [ready-file.json]`.
// QUINCE_* variables switch on other legal choices (see README.md).
import { writeFileSync } from 'node:fs';
import { startQuince } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v ? Number(v) : undefined);
const q = await startQuince({
  port: num(env.QUINCE_PORT),
  altPort: num(env.QUINCE_ALT_PORT),
  rateLimit: num(env.QUINCE_RATE_LIMIT),
  windowMs: num(env.QUINCE_WINDOW_MS),
  activationMs: num(env.QUINCE_ACTIVATION_MS),
  tokenTtlSeconds: num(env.QUINCE_TOKEN_TTL),
  streamMaxMs: num(env.QUINCE_STREAM_MAX_MS),
  serviceVersionRequired: env.QUINCE_SERVICE_VERSION_REQUIRED === '1',
  pinVersion: env.QUINCE_PIN_VERSION === '1',
  base64Data: env.QUINCE_BASE64_DATA === '1',
  smoothing: env.QUINCE_SMOOTHING === '1',
});
const { state: _state, close: _close, ...info } = q;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(info, null, 2));
console.log(JSON.stringify(info, null, 2));
process.on('SIGINT', () => void q.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void q.close().then(() => process.exit(0)));
