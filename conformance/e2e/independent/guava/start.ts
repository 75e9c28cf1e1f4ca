// Starts guava by hand (`npx node conformance/e2e/independent/guava/start.ts`) and prints what the kit
// needs, as the environment variables of a CI job, until Ctrl-C.
import { startGuava } from './server.ts';

const guava = await startGuava();
const lines = [
  `NCS_BASE_URL=${guava.baseUrl}`,
  `NCS_ALT_BASE_URL=${guava.altBaseUrl}`,
  `NCS_TENANT=${guava.tenant}`,
  `NCS_OTHER_TENANT=${guava.otherTenant}`,
  `NCS_FOREIGN_TENANT=${guava.foreignTenant}`,
  `NCS_CLIENT_ID=${guava.clientId}`,
  // Printed for the local run only: the secret is generated at start and never stored anywhere.
  `NCS_CLIENT_SECRET=${guava.clientSecret}`,
  `NCS_TOKEN_URL=${guava.tokenUrl}`,
];
console.log(lines.join('\n'));
process.on('SIGINT', () => {
  void guava.close().then(() => process.exit(0));
});
