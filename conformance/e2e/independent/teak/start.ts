// Starts Teak by hand: `npx node conformance/e2e/independent/teak/start.ts`, then point the kit at it.
import { startTeak } from './server.ts';

const teak = await startTeak({ rateLimit: Number(process.env.TEAK_RATE_LIMIT ?? 600) });
console.log(JSON.stringify({ ...teak, close: undefined }, null, 2));
console.log('Ctrl-C stops Teak.');
process.on('SIGINT', () => void teak.close().then(() => process.exit(0)));
