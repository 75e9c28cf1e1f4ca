// Starts atlas and writes its connection details to the file named by argv[2] (for running the kit by hand).
import { writeFileSync } from 'node:fs';
import { startAtlas } from './index.ts';

// ATLAS_TOKEN_LIFETIME_S, ATLAS_EVENT_RELAY_MS and ATLAS_ACTIVATION_DELAY_MS reproduce the variants of independent-atlas.e2e.test.ts.
const num = (v: string | undefined): number | undefined => (v === undefined ? undefined : Number(v));
const atlas = await startAtlas({
  tokenLifetimeSeconds: num(process.env.ATLAS_TOKEN_LIFETIME_S),
  eventRelayMs: num(process.env.ATLAS_EVENT_RELAY_MS),
  activationDelayMs: num(process.env.ATLAS_ACTIVATION_DELAY_MS),
});
const file = process.argv[2];
const details = JSON.stringify({ ...atlas, close: undefined });
if (file === undefined) process.stdout.write(`${details}\n`);
else writeFileSync(file, details, { mode: 0o600 });
process.on('SIGTERM', () => void atlas.close().then(() => process.exit(0)));
