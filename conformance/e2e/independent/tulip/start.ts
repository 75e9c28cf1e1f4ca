// Starts tulip by hand: `npx node conformance/e2e/independent/tulip/start.ts`, then point the kit at it with the
// printed environment (NCS_DEPLOYMENT_PROFILE=conformance/e2e/independent/tulip/tulip-profile.json).
import { startTulip } from './server.ts';

const t = await startTulip();
console.log(`NCS_BASE_URL=${t.baseUrl}`);
console.log(`NCS_ALT_BASE_URL=${t.altBaseUrl}`);
console.log(`NCS_TENANT=${t.tenant}`);
console.log(`NCS_OTHER_TENANT=${t.otherTenant}`);
console.log(`NCS_FOREIGN_TENANT=${t.foreignTenant}`);
console.log(`NCS_CLIENT_ID=${t.clientId}`);
console.log(`NCS_CLIENT_SECRET=${t.clientSecret}`);
console.log(`NCS_TOKEN_URL=${t.tokenUrl}`);
process.on('SIGINT', () => void t.close().then(() => process.exit(0)));
