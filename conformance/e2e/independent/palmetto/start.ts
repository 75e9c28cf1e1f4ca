// Starts palmetto by hand (`npx node conformance/e2e/independent/palmetto/start.ts`) and prints what a kit run needs.
import { startPalmetto } from './server.ts';

const p = await startPalmetto();
console.log(`palmetto on ${p.baseUrl} (alternate ${p.altBaseUrl})`);
console.log(
  [
    `NCS_BASE_URL=${p.baseUrl}`,
    `NCS_ALT_BASE_URL=${p.altBaseUrl}`,
    `NCS_TENANT=${p.tenant}`,
    `NCS_OTHER_TENANT=${p.otherTenant}`,
    `NCS_FOREIGN_TENANT=${p.foreignTenant}`,
    `NCS_CLIENT_ID=${p.clientId}`,
    `NCS_CLIENT_SECRET=${p.clientSecret}`,
    `NCS_TOKEN_URL=${p.tokenUrl}`,
  ].join('\n'),
);
process.on('SIGINT', () => {
  p.close().then(() => process.exit(0));
});
