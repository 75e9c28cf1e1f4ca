// Starts ailanthus by hand (`npx node conformance/e2e/independent/ailanthus/start.ts`) and prints what a kit
// run against it needs; Ctrl-C stops it.
import { startAilanthus } from './server.ts';

const t = await startAilanthus();
console.log(
  [
    `ailanthus listening: ${t.baseUrl} (alternate ${t.altBaseUrl})`,
    `npx ncs conformance run --base-url ${t.baseUrl} --alt-base-url ${t.altBaseUrl} --tenant ${t.tenant} \\`,
    `  --other-tenant ${t.otherTenant} --foreign-tenant ${t.foreignTenant} --client-id ${t.clientId} \\`,
    `  --client-secret ${t.clientSecret} --token-url ${t.tokenUrl} \\`,
    '  --deployment-profile conformance/e2e/independent/ailanthus/ailanthus-profile.json',
  ].join('\n'),
);
process.on('SIGINT', () => void t.close().then(() => process.exit(0)));
