// Starts locust by hand: `npx node conformance/e2e/independent/locust/start.ts`, then point the kit at it.
import { startLocust } from './server.ts';

const target = await startLocust();
console.log(JSON.stringify(target, null, 2));
console.log(
  `npx ncs conformance run --base-url ${target.baseUrl} --alt-base-url ${target.altBaseUrl} --tenant ${target.tenant} --client-id ${target.clientId} --client-secret ${target.clientSecret} --token-url ${target.tokenUrl}`,
);
