// Starts cottonwood by hand (`npx node conformance/e2e/independent/cottonwood/start.ts`) and prints what
// a conformance run needs; Ctrl-C stops it.
import { startCottonwood } from './server.ts';

const target = await startCottonwood();
const { close, ...shown } = target;
console.log(JSON.stringify(shown, null, 2));
console.log(
  `npx ncs conformance run --base-url ${shown.baseUrl} --alt-base-url ${shown.altBaseUrl} --tenant ${shown.tenant}` +
    ` --client-id ${shown.clientId} --token-url ${shown.tokenUrl}` +
    ' --deployment-profile conformance/e2e/independent/cottonwood/cottonwood-profile.json',
);
process.on('SIGINT', () => {
  void close().then(() => process.exit(0));
});
