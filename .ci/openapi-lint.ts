// Lints every OpenAPI document the simulator serves (each interface version as JSON and YAML, and the
// control plane's) with Redocly CLI and Spectral's spectral:oas ruleset; any error or warning fails.
//   npm run lint:openapi
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '../simulator/index.ts';
import { SUPPORTED_VERSIONS } from '../simulator/contract/versions.ts';

const dir = mkdtempSync(join(tmpdir(), 'ncs-openapi-'));
const server = await serve({ port: 0, host: '127.0.0.1' });
const documents: string[] = [];
try {
  const paths = SUPPORTED_VERSIONS.flatMap((v) => [
    [`openapi.json?version=${v}`, `${v}.json`],
    [`openapi.yaml?version=${v}`, `${v}.yaml`],
  ]);
  for (const [path, file] of paths) {
    const res = await fetch(`${server.baseUrl}/api/public/v1/${path}`);
    if (!res.ok) throw new Error(`GET ${path} answered ${res.status}`);
    writeFileSync(join(dir, file!), await res.text());
    documents.push(join(dir, file!));
  }
  const control = await fetch(`${server.baseUrl}/_sandbox/openapi.json`);
  if (control.ok) {
    writeFileSync(join(dir, 'control-plane.json'), await control.text());
    documents.push(join(dir, 'control-plane.json'));
  }
} finally {
  await server.close();
}

writeFileSync(join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: dir });
  process.stdout.write(r.stdout + r.stderr);
  return { status: r.status ?? 1, output: r.stdout + r.stderr };
};
const bin = (name: string) => join(import.meta.dirname, '..', 'node_modules', '.bin', name);
let failed = 0;
// Redocly exits 0 on warnings, so its summary line is read too.
const redocly = run(bin('redocly'), ['lint', '--max-problems', '200', ...documents]);
if (redocly.status !== 0 || /\d+ warnings?\b/.test(redocly.output)) failed++;
// Spectral exits 0 on warnings unless told to fail on them.
if (run(bin('spectral'), ['lint', '--fail-severity', 'hint', '-r', '.spectral.yaml', ...documents]).status !== 0)
  failed++;
rmSync(dir, { recursive: true, force: true });
console.log(
  failed ? 'OpenAPI lint: problems found' : `OpenAPI lint: ${documents.length} documents, 0 errors, 0 warnings`,
);
process.exit(failed ? 1 : 0);
