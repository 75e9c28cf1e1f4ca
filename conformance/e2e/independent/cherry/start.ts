// Starts cherry by hand: `npx node conformance/e2e/independent/cherry/start.ts [ready-file.json]`.
// CHERRY_PORT, CHERRY_ALT_PORT, CHERRY_RATE_LIMIT, CHERRY_WINDOW_MS, CHERRY_TOKEN_TTL, CHERRY_ACTIVATION_MS,
// CHERRY_KEEP_ALIVE_MS, CHERRY_PAGE_SIZE, CHERRY_REDACT_KEY_ON_REPLAY=1 switch on other legal choices.
import { writeFileSync } from 'node:fs';
import { startCherry } from './server.ts';

const env = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);

const cherry = await startCherry({
  port: env('CHERRY_PORT'),
  altPort: env('CHERRY_ALT_PORT'),
  rateLimit: env('CHERRY_RATE_LIMIT'),
  windowMs: env('CHERRY_WINDOW_MS'),
  tokenTtlSeconds: env('CHERRY_TOKEN_TTL'),
  activationMs: env('CHERRY_ACTIVATION_MS'),
  keepAliveMs: env('CHERRY_KEEP_ALIVE_MS'),
  pageSize: env('CHERRY_PAGE_SIZE'),
  redactKeyOnReplay: process.env.CHERRY_REDACT_KEY_ON_REPLAY === '1',
});
const { close: _close, ...shown } = cherry;
const ready = process.argv[2];
if (ready) writeFileSync(ready, JSON.stringify(shown, null, 2));
console.log(
  `cherry on ${cherry.baseUrl} and ${cherry.altBaseUrl} (tenants ${cherry.tenant}, ${cherry.otherTenant}; ${cherry.foreignTenant} not released)`,
);
process.on('SIGINT', () => void cherry.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void cherry.close().then(() => process.exit(0)));
