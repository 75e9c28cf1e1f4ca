// `node bin/ncs.ts` in a clone on a Node that cannot run the sources: one line naming the Node needed
// and the command that works (`npm run ncs --`), exit 2, no stack trace. Needs such a Node on the PATH
// (the project's machines and CI have Node 20 there); without one the test says so and is skipped.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NCS_TS_BIN } from '../../simulator/e2e/ready-file.ts';
import { olderNode } from '../../simulator/test-support/older-node.ts';

const ENGINES = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    engines: { node: string };
  }
).engines.node;
const old = olderNode(ENGINES);

describe('node bin/ncs.ts on an unsupported Node', () => {
  it.skipIf(!old)(`prints the Node it needs and exits 2 (${old ?? 'no older Node on the PATH'})`, () => {
    for (const args of [['--version'], ['serve', '--port', '0']]) {
      const run = spawnSync(old ?? 'node', [NCS_TS_BIN, ...args], { encoding: 'utf8' });
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^ncs needs Node\.js >=22\.19; this is Node\.js v\d+\.\d+\.\d+, .*npm run ncs -- <command>$/,
        ),
      ]);
      expect(run.stderr).not.toMatch(/ERR_|\n\s+at /);
    }
  });

  it('a supported Node runs it', () => {
    const run = spawnSync(process.execPath, [NCS_TS_BIN, '--version'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
