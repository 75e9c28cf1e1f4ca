// Starts Basswood by hand (`npx node conformance/e2e/independent/basswood/start.ts`) and prints what the kit
// needs, e.g. for `npx ncs conformance run --deployment-profile .../basswood-profile.json`.
import { startBasswood } from './server.ts';

const target = await startBasswood({ rateLimit: Number(process.env.BASSWOOD_RATE_LIMIT ?? 600) });
const { store: _store, close: _close, ...shown } = target;
console.log(JSON.stringify(shown, null, 2));
console.log('Ctrl-C stops it.');
process.on('SIGINT', () => {
  void target.close().then(() => process.exit(0));
});
