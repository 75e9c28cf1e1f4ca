// Starts pawpaw by hand (npx node conformance/e2e/independent/pawpaw/start.ts) and prints what a kit run needs.
import { startPawpaw } from './server.ts';

const target = await startPawpaw();
const { close: _close, ...shown } = target;
console.log(JSON.stringify(shown, null, 2));
console.log(
  `npx ncs conformance run --base-url ${target.baseUrl} --alt-base-url ${target.altBaseUrl} --tenant ${target.tenant}` +
    ` --client-id ${target.clientId} --token-url ${target.tokenUrl}` +
    ' --deployment-profile conformance/e2e/independent/pawpaw/pawpaw-profile.json (NCS_CLIENT_SECRET from above)',
);
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
