// Starts boxelder by hand and prints how to point the kit at it: `npx node conformance/e2e/independent/boxelder/start.ts`.
import { fileURLToPath } from 'node:url';
import { startBoxelder } from './server.ts';

const target = await startBoxelder();
const profile = fileURLToPath(new URL('./boxelder-profile.json', import.meta.url));
console.log(`boxelder listening on ${target.baseUrl} (alternate ${target.altBaseUrl})`);
console.log(
  `npx ncs conformance run --base-url ${target.baseUrl} --alt-base-url ${target.altBaseUrl} --tenant ${target.tenant} ` +
    `--client-id ${target.clientId} --client-secret ${target.clientSecret} --token-url ${target.tokenUrl} --deployment-profile ${profile}`,
);
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
