// Starts rowan by hand: `npx node conformance/e2e/independent/rowan/start.ts [target.json]`.
// ROWAN_RATE_LIMIT / ROWAN_WINDOW_MS set the throttle, ROWAN_ACTIVATION_MS the new -> live delay,
// ROWAN_KEEPALIVE_MS / ROWAN_STREAM_LIFETIME_MS the stream worker, ROWAN_TOKEN_TTL the token lifetime (s),
// ROWAN_PAGE_SIZE the DRF PAGE_SIZE of every list.
import { writeFileSync } from 'node:fs';
import { startRowan } from './server.ts';

const num = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);
const target = await startRowan({
  rateLimit: num('ROWAN_RATE_LIMIT'),
  windowMs: num('ROWAN_WINDOW_MS'),
  activationMs: num('ROWAN_ACTIVATION_MS'),
  keepAliveMs: num('ROWAN_KEEPALIVE_MS'),
  streamLifetimeMs: num('ROWAN_STREAM_LIFETIME_MS'),
  tokenTtlSeconds: num('ROWAN_TOKEN_TTL'),
  pageSize: num('ROWAN_PAGE_SIZE'),
});
const { close: _close, ...shown } = target;
const out = process.argv[2];
if (out) writeFileSync(out, JSON.stringify(shown, null, 2));
console.log(JSON.stringify(shown, null, 2));
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void target.close().then(() => process.exit(0)));
