// Starts redbud by hand: `npx node conformance/e2e/independent/redbud/start.ts`, then point the kit at it
// (`--deployment-profile conformance/e2e/independent/redbud/redbud-profile.json`). Ctrl-C stops it.
import { startRedbud } from './server.ts';

const target = await startRedbud();
console.log(`redbud listening: ${target.baseUrl} (alt ${target.altBaseUrl})`);
console.log(`tenants: ${target.tenant}, ${target.otherTenant} (released), ${target.foreignTenant} (not released)`);
console.log(`client credentials: ${target.clientId} / ${target.clientSecret} at ${target.tokenUrl}`);
process.on('SIGINT', () => void target.close().then(() => process.exit(0)));
