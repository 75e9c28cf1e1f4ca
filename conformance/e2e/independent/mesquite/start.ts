// Starts mesquite by hand: `npx node conformance/e2e/independent/mesquite/start.ts`, then point the kit at
// the printed addresses (NCS_BASE_URL, NCS_CLIENT_ID, ...). Ctrl-C stops it.
import { startMesquite } from './server.ts';

const m = await startMesquite();
console.log(
  JSON.stringify(
    {
      baseUrl: m.baseUrl,
      altBaseUrl: m.altBaseUrl,
      tenant: m.tenant,
      otherTenant: m.otherTenant,
      foreignTenant: m.foreignTenant,
      clientId: m.clientId,
      clientSecret: m.clientSecret,
      tokenUrl: m.tokenUrl,
    },
    null,
    2,
  ),
);
process.on('SIGINT', () => void m.close().then(() => process.exit(0)));
