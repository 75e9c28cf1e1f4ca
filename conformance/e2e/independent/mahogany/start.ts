// Starts mahogany by hand and prints its handle as JSON (Ctrl-C stops it).
import { startMahogany } from './server.ts';

const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const handle = await startMahogany({
  port: num('MAHOGANY_PORT'),
  altPort: num('MAHOGANY_ALT_PORT'),
  rateLimit: num('MAHOGANY_RATE_LIMIT'),
  windowMs: num('MAHOGANY_WINDOW_MS'),
  tokenTtlSeconds: num('MAHOGANY_TOKEN_TTL'),
  streamMaxSeconds: num('MAHOGANY_STREAM_MAX_SECONDS'),
  replicaLagMs: num('MAHOGANY_REPLICA_LAG_MS'),
});
const { close: _close, ...shown } = handle;
console.log(JSON.stringify(shown, null, 2));
const stop = () => void handle.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
