// Starts tamarind by hand: `npx node conformance/e2e/independent/tamarind/start.ts`, then point the kit
// at the printed addresses (the client secret is generated per start, like a freshly created Keycloak client).
import { startTamarind } from './server.ts';

const target = await startTamarind();
const lines = [
  `base URL       ${target.baseUrl}`,
  `alt base URL   ${target.altBaseUrl}`,
  `token URL      ${target.tokenUrl}`,
  `client         ${target.clientId}`,
  `client secret  ${target.clientSecret}`,
  `tenants        ${target.tenant}, ${target.otherTenant} (released), ${target.foreignTenant} (not released)`,
  '',
  'npx ncs conformance run \\',
  `  --base-url ${target.baseUrl} --alt-base-url ${target.altBaseUrl} \\`,
  `  --tenant ${target.tenant} --other-tenant ${target.otherTenant} --foreign-tenant ${target.foreignTenant} \\`,
  `  --client-id ${target.clientId} --token-url ${target.tokenUrl} \\`,
  '  --deployment-profile conformance/e2e/independent/tamarind/tamarind-profile.json',
  `(export NCS_CLIENT_SECRET=${target.clientSecret})`,
];
console.log(lines.join('\n'));

// Ctrl-C closes both listeners and stops the delivery worker before the process ends.
process.once('SIGINT', () => {
  void target.close().then(() => process.exit(0));
});
