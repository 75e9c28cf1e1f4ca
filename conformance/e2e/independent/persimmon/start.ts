// Starts persimmon by hand: `npx node conformance/e2e/independent/persimmon/start.ts`, then point the kit
// at the printed addresses (Ctrl-C stops it).
import { startPersimmon } from './server.ts';

const p = await startPersimmon();
console.log(
  JSON.stringify(
    {
      baseUrl: p.baseUrl,
      altBaseUrl: p.altBaseUrl,
      tenant: p.tenant,
      otherTenant: p.otherTenant,
      foreignTenant: p.foreignTenant,
      clientId: p.clientId,
      clientSecret: p.clientSecret,
      tokenUrl: p.tokenUrl,
    },
    null,
    2,
  ),
);
process.on('SIGINT', () => void p.close().then(() => process.exit(0)));
