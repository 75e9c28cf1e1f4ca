// Starts zelkova by hand: `npx node conformance/e2e/independent/zelkova/start.ts [ready-file.json]`.
// ZELKOVA_* variables switch on other legal choices (see README.md).
import { writeFileSync } from 'node:fs';
import { startZelkova } from './server.ts';

const env = process.env;
const num = (v: string | undefined) => (v ? Number(v) : undefined);
const z = await startZelkova({
  port: num(env.ZELKOVA_PORT),
  altPort: num(env.ZELKOVA_ALT_PORT),
  rateLimit: num(env.ZELKOVA_RATE_LIMIT),
  windowMs: num(env.ZELKOVA_WINDOW_MS),
  tokenTtlSec: num(env.ZELKOVA_TOKEN_TTL),
  activationMs: num(env.ZELKOVA_ACTIVATION_MS),
  tenantStreams: env.ZELKOVA_TENANT_STREAMS === '1',
  streamFromStart: env.ZELKOVA_STREAM_FROM_START === '1',
  relayDelayMs: num(env.ZELKOVA_RELAY_DELAY_MS),
  replicaLagMs: num(env.ZELKOVA_REPLICA_LAG_MS),
  storeRefusals: env.ZELKOVA_STORE_REFUSALS === '1',
  strictQuery: env.ZELKOVA_STRICT_QUERY === '1',
  keyScope: env.ZELKOVA_KEY_SCOPE === 'client' ? 'client' : 'tenant',
  keyTtlMs: num(env.ZELKOVA_KEY_TTL_MS),
  workerPollMs: num(env.ZELKOVA_WORKER_POLL_MS),
  separateAuth: env.ZELKOVA_SEPARATE_AUTH === '1',
  sseStyle: env.ZELKOVA_SSE_STYLE === 'plain' || env.ZELKOVA_SSE_STYLE === 'pretty' ? env.ZELKOVA_SSE_STYLE : 'named',
  redactKeyOnReplay: env.ZELKOVA_REDACT_KEY_ON_REPLAY === '1',
});
const { close: _close, ...info } = z;
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(info, null, 2));
console.log(JSON.stringify(info, null, 2));
const stop = () => void z.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
