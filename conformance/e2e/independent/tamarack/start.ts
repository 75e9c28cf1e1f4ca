// Starts tamarack by hand: `npx node conformance/e2e/independent/tamarack/start.ts [ready-file.json]`.
// TAMARACK_* variables switch on other legal choices (see README.md). The ready file holds the addresses,
// tenants and client credentials (sandbox only), for `npm run -s ncs -- conformance run` via env variables.
import { writeFileSync } from 'node:fs';
import { startTamarack } from './server.ts';

const env = process.env;
const num = (v: string | undefined): number | undefined => (v === undefined || v === '' ? undefined : Number(v));

const t = await startTamarack({
  port: num(env.TAMARACK_PORT),
  altPort: num(env.TAMARACK_ALT_PORT),
  rateLimit: num(env.TAMARACK_RATE_LIMIT),
  windowMs: num(env.TAMARACK_WINDOW_MS),
  tokenTtlSec: num(env.TAMARACK_TOKEN_TTL),
  serviceVersionRequired: env.TAMARACK_SERVICE_VERSION_REQUIRED === '1',
  keyOnReplay: env.TAMARACK_KEY_ON_REPLAY === '1',
  auditOldestFirst: env.TAMARACK_AUDIT_OLDEST_FIRST === '1',
  activationMs: num(env.TAMARACK_ACTIVATION_MS),
  retryBaseMs: num(env.TAMARACK_RETRY_BASE_MS),
  streamMaxMs: num(env.TAMARACK_STREAM_MAX_MS),
  streamLagMs: num(env.TAMARACK_STREAM_LAG_MS),
  offsetBase: num(env.TAMARACK_OFFSET_BASE),
  replayRefusals: env.TAMARACK_REPLAY_REFUSALS === '1',
});
const { close: _close, ...ready } = t;
const file = process.argv[2];
if (file) writeFileSync(file, JSON.stringify(ready, null, 2));
console.log(
  `tamarack on ${t.baseUrl} (alternate ${t.altBaseUrl}); tenants ${t.tenant}, ${t.otherTenant}; foreign ${t.foreignTenant}`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void t.close().then(() => process.exit(0)));
