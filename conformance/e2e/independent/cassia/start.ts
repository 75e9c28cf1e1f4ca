// Starts cassia by hand and prints what the kit needs: `npx node conformance/e2e/independent/cassia/start.ts`.
import { startCassia } from './server.ts';

const cassia = await startCassia({ burst: 250, refillPerSecond: 50 });
const { close: _close, ...printable } = cassia;
console.log(JSON.stringify(printable, null, 2));
console.log('Ctrl-C to stop');
process.on('SIGINT', () => {
  void cassia.close().then(() => process.exit(0));
});
