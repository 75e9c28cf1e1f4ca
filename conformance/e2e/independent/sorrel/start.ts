// Starts sorrel by hand: `npx node conformance/e2e/independent/sorrel/start.ts`, then point the kit at it.
import { startSorrel } from './server.ts';

const s = await startSorrel({ rateLimit: 250, windowMs: 5000 });
console.log(`sorrel listening
  NCS_BASE_URL=${s.baseUrl}
  NCS_ALT_BASE_URL=${s.altBaseUrl}
  NCS_TENANT=${s.tenant} NCS_OTHER_TENANT=${s.otherTenant} NCS_FOREIGN_TENANT=${s.foreignTenant}
  NCS_CLIENT_ID=${s.clientId} NCS_CLIENT_SECRET=${s.clientSecret}
  NCS_TOKEN_URL=${s.tokenUrl}`);
process.on('SIGINT', () => {
  void s.close().then(() => process.exit(0));
});
