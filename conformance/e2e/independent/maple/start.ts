// Starts maple by hand: `npx node conformance/e2e/independent/maple/start.ts [/tmp/maple.json]` prints
// (and writes) the addresses, tenants and client credentials. MAPLE_* switch other legal choices on.
import { writeFileSync } from 'node:fs';
import { startMaple } from './server.ts';

const env = process.env;
const maple = await startMaple({
  capacity: env.MAPLE_RATE_CAPACITY ? Number(env.MAPLE_RATE_CAPACITY) : undefined,
  refillPerSecond: env.MAPLE_RATE_REFILL ? Number(env.MAPLE_RATE_REFILL) : undefined,
  cursorWins: env.MAPLE_CURSOR_WINS === '1',
  strictFields: env.MAPLE_STRICT_FIELDS === '1',
});
const { close: _close, ...handle } = maple;
const text = JSON.stringify(handle, null, 2);
if (process.argv[2]) writeFileSync(process.argv[2], text);
console.log(text);
process.on('SIGINT', () => void maple.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void maple.close().then(() => process.exit(0)));
