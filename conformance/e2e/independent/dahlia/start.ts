// Starts dahlia and prints its addresses as JSON (for running the kit's CLI against it by hand).
// DAHLIA_ALG=HS256, DAHLIA_TOKEN_SECONDS, DAHLIA_RATE_LIMIT, DAHLIA_WINDOW_MS, DAHLIA_PORT, DAHLIA_ALT_PORT.
import { writeFileSync } from 'node:fs';
import { startDahlia } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const dahlia = await startDahlia({
  alg: env.DAHLIA_ALG === 'HS256' ? 'HS256' : 'RS256',
  tokenLifetimeSeconds: num(env.DAHLIA_TOKEN_SECONDS),
  rateLimit: num(env.DAHLIA_RATE_LIMIT),
  windowMs: num(env.DAHLIA_WINDOW_MS),
  port: num(env.DAHLIA_PORT),
  altPort: num(env.DAHLIA_ALT_PORT),
});
const { close: _close, ...info } = dahlia;
const text = JSON.stringify(info, null, 2);
const file = process.argv[2];
if (file) writeFileSync(file, text);
console.log(text);
process.on('SIGINT', () => void dahlia.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void dahlia.close().then(() => process.exit(0)));
