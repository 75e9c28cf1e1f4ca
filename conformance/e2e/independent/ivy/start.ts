// Starts ivy by hand: `npx node conformance/e2e/independent/ivy/start.ts [ready-file.json]`. IVY_* variables
// switch on other legal choices (README.md); the addresses and credentials are printed or written to the file.
import { writeFileSync } from 'node:fs';
import type { IvyOptions } from './server.ts';
import { startIvy } from './server.ts';

function num(name: string): number | undefined {
  const v = process.env[name];
  return v === undefined || v === '' ? undefined : Number(v);
}

export function optionsFromEnv(): IvyOptions {
  const cold = num('IVY_COLD_MS');
  const fanout = num('IVY_FANOUT_MS');
  return {
    lagMs: num('IVY_LAG_MS'),
    coldMs: cold === undefined ? undefined : [cold / 2, cold],
    streamLimitMs: num('IVY_STREAM_LIMIT_MS'),
    fanoutMs: fanout === undefined ? undefined : [fanout / 2, fanout],
    sharedAltBucket: process.env.IVY_SHARED_ALT_BUCKET === '1',
    ratePerSecond: num('IVY_RATE_PER_SECOND'),
    burst: num('IVY_BURST'),
    ...(process.env.IVY_TRACE_LAG === '1' ? { trace: (line: string) => process.stderr.write(`${line}\n`) } : {}),
  };
}

const ivy = await startIvy(optionsFromEnv());
const { close: _close, ...handle } = ivy;
const text = JSON.stringify(handle, null, 2);
const file = process.argv[2];
if (file) writeFileSync(file, text);
else process.stdout.write(`${text}\n`);
process.on('SIGINT', () => void ivy.close().then(() => process.exit(0)));
process.on('SIGTERM', () => void ivy.close().then(() => process.exit(0)));
