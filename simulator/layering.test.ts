// The layering rules of biome.json, proved: for each forbidden edge a probe file that imports across
// it must fail lint, and an allowed edge must pass. The probes live in a scratch copy of the layout
// (biome.json applies its rules by path), never in the source tree.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = join(ROOT, 'node_modules/.bin/biome');

/** [probe path, what it imports, why it is forbidden]. */
const FORBIDDEN: [string, string, string][] = [
  ['simulator/contract/probe.ts', '../state/idempotency-store.ts', 'contract/ imports state/'],
  ['simulator/contract/probe.ts', '../handlers/catalog.ts', 'contract/ imports a feature'],
  ['simulator/contract/probe.ts', '../core/envelope.ts', 'contract/ imports the kernel'],
  ['simulator/contract/routes/probe.ts', '../../state/idempotency-store.ts', 'contract/routes/ imports state/'],
  ['simulator/inspector/probe.ts', '../app/sandbox.ts', 'inspector/ imports app/'],
  ['simulator/handlers/probe.ts', '../../bin/cli/program.ts', 'a feature imports bin/'],
  ['simulator/control/probe.ts', '../app/sandbox.ts', 'a feature imports app/'],
  ['simulator/core/probe.ts', '../handlers/catalog.ts', 'the kernel imports a feature'],
  ['simulator/lib/probe.ts', '../core/envelope.ts', 'lib/ imports above it'],
  ['simulator/services/probe.ts', '../handlers/catalog.ts', 'services/ imports a feature'],
  ['simulator/services/probe.ts', '../core/envelope.ts', 'services/ imports the kernel'],
  ['simulator/services/probe.ts', '../app/sandbox.ts', 'services/ imports app/'],
  ['simulator/services/probe.ts', '../test-support/test-context.ts', 'shipped code imports test-only code'],
  ['simulator/state/probe.ts', '../services/connection-service.ts', 'state/ imports the services above it'],
  ['simulator/state/probe.ts', '../app/sandbox.ts', 'a store imports app/'],
  [
    'simulator/state/probe.ts',
    './persistence/persistence.ts',
    'a store imports Persistence (a decorator writes it through)',
  ],
  ['simulator/app/probe.ts', '../test-support/test-context.ts', 'shipped code imports test-only code'],
  ['simulator/middleware/probe.ts', '../test-support/test-context.ts', 'shipped code imports test-only code'],
  ['simulator/app/probe.ts', '../../conformance/index.ts', 'the simulator imports the kit'],
  ['conformance/runner/probe.ts', '../../simulator/core/envelope.ts', 'the kit imports simulator internals'],
  [
    'conformance/reporters/probe.ts',
    '../test-support/fixture-run.ts',
    'the kit ships code that imports test-only code',
  ],
];
const ALLOWED: [string, string][] = [
  ['simulator/contract/probe.ts', './envelope.ts'],
  ['simulator/contract/routes/probe.ts', '../route-def.ts'],
  ['simulator/inspector/probe.ts', '../control/operations.ts'],
  ['simulator/app/probe.ts', '../inspector/index.ts'],
  ['simulator/services/probe.ts', '../state/ports/connections.ts'],
  ['simulator/services/probe.ts', '../lib/clock.ts'],
  ['simulator/state/probe.ts', './ports/connections.ts'],
  ['simulator/state/persistence/probe.ts', '../ports/connections.ts'],
  ['simulator/handlers/probe.ts', '../services/connection-service.ts'],
  ['simulator/control/probe.ts', '../services/connection-service.ts'],
  ['conformance/runner/probe.ts', '../../simulator/contract/envelope.ts'],
];

/** Every case at once: a probe file each (probe-<n>.ts: biome.json applies its rules by folder), one lint. */
const CASES = [...FORBIDDEN.map(([path, target]) => [path, target] as const), ...ALLOWED].map(([path, target], n) => ({
  file: path.replace(/probe\.ts$/, `probe-${n}.ts`),
  target,
}));

let scratch: string;
/** The diagnostics of the one lint run, per probe file (the github reporter: one line each). */
const diagnostics = new Map<string, string[]>();
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'ncs-layering-'));
  const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8'));
  delete config.$schema;
  config.vcs = { enabled: false };
  writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));
  for (const { file, target } of CASES) {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    writeFileSync(join(scratch, file), `import { x } from '${target}';\n\nexport const y = x;\n`);
  }
  let out: string;
  try {
    out = execFileSync(BIOME, ['lint', '--max-diagnostics=1000', '--reporter=github', '.'], {
      cwd: scratch,
      encoding: 'utf8',
      stdio: 'pipe',
    });
  } catch (err) {
    const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
    out = `${stdout}${stderr}`;
  }
  for (const line of out.split('\n')) {
    const file = /[,\s]file=([^,]+),/.exec(line)?.[1];
    if (file) diagnostics.set(file, [...(diagnostics.get(file) ?? []), line]);
  }
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The diagnostics biome reported for case `n`'s probe file (it names files by their absolute path). */
const lint = (n: number): string =>
  [...diagnostics].flatMap(([file, lines]) => (file.endsWith(`/${CASES[n]?.file}`) ? lines : [])).join('\n');

describe('layering rules (biome.json)', () => {
  for (const [n, [path, target, why]] of FORBIDDEN.entries())
    it(`lint refuses: ${why} (${path} -> ${target})`, () => {
      expect(lint(n)).toContain('noRestrictedImports');
    });
  for (const [i, [path, target]] of ALLOWED.entries())
    it(`lint allows ${path} -> ${target}`, () => {
      expect(lint(FORBIDDEN.length + i)).not.toContain('noRestrictedImports');
    });
});
