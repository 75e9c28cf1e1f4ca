// Starts hackberry by hand (`npx node conformance/e2e/independent/hackberry/start.ts`) and prints the
// environment a kit run against it needs; Ctrl-C stops it.
import { startHackberry } from './server.ts';

const h = await startHackberry({ rateLimit: 600, windowMs: 60_000 });
console.log(`NCS_BASE_URL=${h.baseUrl}
NCS_ALT_BASE_URL=${h.altBaseUrl}
NCS_TENANT=${h.tenant}
NCS_OTHER_TENANT=${h.otherTenant}
NCS_FOREIGN_TENANT=${h.foreignTenant}
NCS_CLIENT_ID=${h.clientId}
NCS_CLIENT_SECRET=${h.clientSecret}
NCS_TOKEN_URL=${h.tokenUrl}
NCS_DEPLOYMENT_PROFILE=conformance/e2e/independent/hackberry/hackberry-profile.json`);
process.on('SIGINT', () => {
  h.close().then(() => process.exit(0));
});
