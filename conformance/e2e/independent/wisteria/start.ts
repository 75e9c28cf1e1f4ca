// Starts wisteria by hand: `npx node conformance/e2e/independent/wisteria/start.ts [handle.json]`.
// WISTERIA_* variables switch on other legal choices (see README.md).
import { writeFileSync } from 'node:fs';
import { startWisteria } from './server.ts';

const env = process.env;
const num = (name: string) => (env[name] === undefined ? undefined : Number(env[name]));
const w = await startWisteria({
  rateLimit: num('WISTERIA_RATE_LIMIT'),
  windowMs: num('WISTERIA_WINDOW_MS'),
  activationMs: num('WISTERIA_ACTIVATION_MS'),
  tokenTtlSeconds: num('WISTERIA_TOKEN_TTL_S'),
  serviceVersionRequired: env.WISTERIA_SERVICE_VERSION_REQUIRED === '1',
  auditOldestFirst: env.WISTERIA_AUDIT_OLDEST_FIRST === '1',
  strictQuery: env.WISTERIA_STRICT_QUERY === '1',
  auditHashSuffix: env.WISTERIA_AUDIT_HASH_SUFFIX === '1',
  maxPageSize: num('WISTERIA_MAX_PAGE_SIZE'),
  sseTimeoutMs: num('WISTERIA_SSE_TIMEOUT_MS'),
  timeOffsetMinutes: num('WISTERIA_TIME_OFFSET_MIN'),
  tokenAuth: env.WISTERIA_TOKEN_AUTH === 'post' ? 'post' : 'both',
  deliveryLogSinceCurrent: env.WISTERIA_DELIVERY_LOG_SINCE_CURRENT === '1',
});
const { state: _state, close: _close, ...handle } = w;
const out = process.argv[2];
// The handle carries the client secret: it goes to a file the caller names, not to the console.
if (out !== undefined) writeFileSync(out, JSON.stringify({ ...handle, pid: process.pid }, null, 2), { mode: 0o600 });
console.log(`wisteria on ${w.baseUrl} and ${w.altBaseUrl}; tenant ${w.tenant}; client ${w.clientId}`);
process.on('SIGINT', () => void w.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void w.close().then(() => process.exit(0)));
