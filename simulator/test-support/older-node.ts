// A Node on the PATH older than `engines`, for the tests of what such a Node is told.
import { spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { nodeSatisfies } from '../contract/node-version.ts';

/**
 * The first `node` on the PATH (outside node_modules/.bin, where npm puts the pinned one) that does not
 * satisfy `range`, or undefined when there is none.
 * @example olderNode('>=22.19') // '/usr/bin/node' on a machine with Node 20
 */
export function olderNode(range: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || dir.includes('node_modules')) continue;
    const bin = join(dir, 'node');
    const run = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    if (run.status === 0 && !nodeSatisfies(run.stdout.trim(), range)) return bin;
  }
  return undefined;
}
