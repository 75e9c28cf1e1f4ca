// Starts bayberry by hand: `npx node conformance/e2e/independent/bayberry/start.ts`, then point the kit at it.
import { startBayberry } from './server.ts';

const target = await startBayberry();
const { close: _close, ...shown } = target;
console.log(JSON.stringify(shown, null, 2));
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
