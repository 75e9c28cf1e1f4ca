// Starts fern by hand: `npx node conformance/e2e/independent/fern/start.ts [handle.json]`. FERN_*
// variables switch on other legal choices (see README.md). The client secret goes into the handle
// file only, never to the console.
import { writeFileSync } from 'node:fs';
import { startFern } from './server.ts';

const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const fern = await startFern({
  versionOptional: process.env.FERN_VERSION_OPTIONAL === '1',
  tokenLifetimeS: num('FERN_TOKEN_LIFETIME_S'),
  rateLimit: num('FERN_RATE_LIMIT'),
  windowMs: num('FERN_WINDOW_MS'),
  activationMs: num('FERN_ACTIVATION_MS'),
  auditNewestFirst: process.env.FERN_AUDIT_NEWEST_FIRST === '1',
  resendSameId: process.env.FERN_RESEND_SAME_ID === '1',
  strictQuery: process.env.FERN_STRICT_QUERY === '1',
  versionEverywhere: process.env.FERN_VERSION_EVERYWHERE === '1',
  sseLf: process.env.FERN_SSE_LF === '1',
  ssePretty: process.env.FERN_SSE_PRETTY === '1',
  streamFromStart: process.env.FERN_STREAM_FROM_START === '1',
  tzOffsetMin: num('FERN_TZ_OFFSET_MIN'),
});
const { close: _close, ...handle } = fern;
const file = process.argv[2] ?? '/tmp/fern.json';
writeFileSync(file, JSON.stringify(handle, null, 2), { mode: 0o600 });
console.log(
  `fern on ${fern.baseUrl} (alt ${fern.altBaseUrl}), tenants ${fern.tenant}/${fern.otherTenant}, handle in ${file}`,
);
process.on('SIGINT', () => void fern.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void fern.close().then(() => process.exit(0)));
