// Starts mangrove by hand: `npx node conformance/e2e/independent/mangrove/start.ts [/tmp/mangrove.json]`.
// Prints (and optionally writes) the addresses and credentials; MANGROVE_* variables choose other legal options.
import { writeFileSync } from 'node:fs';
import { setTimeZone } from './http.ts';
import { startMangrove } from './server.ts';

const num = (name: string): number | undefined => {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : Number(v);
};

setTimeZone(process.env.MANGROVE_TIME_ZONE ?? '');
const m = await startMangrove({
  rateLimit: num('MANGROVE_RATE_LIMIT'),
  windowMs: num('MANGROVE_WINDOW_MS'),
  provisionMs: num('MANGROVE_PROVISION_MS'),
  retrySecondMs: num('MANGROVE_RETRY_SECOND_MS'),
  auditOldestFirst: process.env.MANGROVE_AUDIT_OLDEST_FIRST === '1',
  auditMaxPerPage: num('MANGROVE_AUDIT_MAX_PER_PAGE'),
  tokenTtlS: num('MANGROVE_TOKEN_TTL_S'),
  redeliverInPlace: process.env.MANGROVE_REDELIVER_IN_PLACE === '1',
  auditGenesis: process.env.MANGROVE_AUDIT_GENESIS === 'zeros' ? 'zeros' : 'null',
});
const { close, ...info } = m;
const text = JSON.stringify(info, null, 2);
console.log(text);
const out = process.argv[2];
if (out) writeFileSync(out, text);
process.on('SIGINT', () => void close().then(() => process.exit(0)));
process.on('SIGTERM', () => void close().then(() => process.exit(0)));
