// Starts rosewood by hand: `npx node conformance/e2e/independent/rosewood/start.ts`, then point the kit at it
// with the printed addresses (the token URL, client id and secret are the deployment's fixed test values).
import { startRosewood } from './server.ts';

const rw = await startRosewood({ rateLimit: Number(process.env.RW_RATE_LIMIT ?? 1200) });
console.log(
  JSON.stringify(
    {
      baseUrl: rw.baseUrl,
      altBaseUrl: rw.altBaseUrl,
      tenant: rw.tenant,
      otherTenant: rw.otherTenant,
      foreignTenant: rw.foreignTenant,
      clientId: rw.clientId,
      clientSecret: rw.clientSecret,
      tokenUrl: rw.tokenUrl,
    },
    null,
    2,
  ),
);
console.log('rosewood is listening; Ctrl-C stops it.');
process.on('SIGINT', () => void rw.close().then(() => process.exit(0)));
