// Starts buttonwood by hand: `npx node conformance/e2e/independent/buttonwood/start.ts`, then run the kit with
// the printed environment. Stops on Ctrl-C.
import { startButtonwood } from './server.ts';

const t = await startButtonwood();
console.log(`NCS_BASE_URL=${t.baseUrl}`);
console.log(`NCS_ALT_BASE_URL=${t.altBaseUrl}`);
console.log(`NCS_TENANT=${t.tenant} NCS_OTHER_TENANT=${t.otherTenant} NCS_FOREIGN_TENANT=${t.foreignTenant}`);
console.log(`NCS_CLIENT_ID=${t.clientId} NCS_CLIENT_SECRET=${t.clientSecret} NCS_TOKEN_URL=${t.tokenUrl}`);
process.on('SIGINT', () => void t.close().then(() => process.exit(0)));
