// Starts ironbark by hand and prints its handle as JSON (Ctrl-C stops it).
// Usage: npx node conformance/e2e/independent/ironbark/start.ts [rateLimit] [windowMs]
import { startIronbark } from './server.ts';

const [rateLimit, windowMs] = process.argv.slice(2).map(Number);
const handle = await startIronbark({
  ...(rateLimit ? { rateLimit } : {}),
  ...(windowMs ? { windowMs } : {}),
});
const { close, ...printable } = handle;
console.log(JSON.stringify(printable, null, 2));
const stop = () => {
  void close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
