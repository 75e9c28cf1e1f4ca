// Starts sweetgum by hand: `npx node conformance/e2e/independent/sweetgum/start.ts`, then point the kit at
// the printed addresses (NCS_* variables) with the deployment profile beside this file.
import { startSweetgum } from './server.ts';

const s = await startSweetgum({ rateLimit: 600, windowMs: 60_000 });
console.log(`NCS_BASE_URL=${s.baseUrl}`);
console.log(`NCS_ALT_BASE_URL=${s.altBaseUrl}`);
console.log(`NCS_TENANT=${s.tenant}`);
console.log(`NCS_OTHER_TENANT=${s.otherTenant}`);
console.log(`NCS_FOREIGN_TENANT=${s.foreignTenant}`);
console.log(`NCS_CLIENT_ID=${s.clientId}`);
console.log(`NCS_CLIENT_SECRET=${s.clientSecret}`);
console.log(`NCS_TOKEN_URL=${s.tokenUrl}`);
process.on('SIGINT', () => void s.close().then(() => process.exit(0)));
