// Starts sandalwood by hand and prints its handle as JSON: npx node conformance/e2e/independent/sandalwood/start.ts
import { startSandalwood } from './server.ts';

const service = await startSandalwood({
  rateLimit: Number(process.env.SANDALWOOD_RATE_LIMIT ?? 1000),
  windowMs: Number(process.env.SANDALWOOD_WINDOW_MS ?? 10_000),
});
const { close: _close, ...handle } = service;
console.log(JSON.stringify(handle, null, 2));
process.on('SIGINT', () => void service.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void service.close().then(() => process.exit(0)));
