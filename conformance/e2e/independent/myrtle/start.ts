// Starts myrtle by hand: `npx node conformance/e2e/independent/myrtle/start.ts`.
import { startMyrtle } from './server.ts';

const t = await startMyrtle();
console.log(JSON.stringify(t, null, 2));
