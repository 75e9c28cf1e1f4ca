// Starts yarrow by hand: `npx node conformance/e2e/independent/yarrow/start.ts [ready-file.json]`.
// YARROW_* variables switch on other legal choices (see README.md); the ready file holds the addresses,
// tenants and client credentials (a sandbox secret).
import { writeFileSync } from 'node:fs';
import { optionsFromEnv } from './options.ts';
import { startYarrow } from './server.ts';

const d = await startYarrow(optionsFromEnv(process.env));
const { close: _close, ...info } = d;
if (process.argv[2]) writeFileSync(process.argv[2], JSON.stringify(info, null, 2));
console.log(`yarrow on ${d.baseUrl} and ${d.altBaseUrl}, tenant ${d.tenant}`);
const stop = () => void d.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
