import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NCS_BIN, ROOT, SERVE_NODE_ARGS, serveArgv, serveNodeArgs } from './processes.ts';

describe('the Node flags the bench starts the source simulator with', () => {
  it('are read from a "node <flags> bin/ncs.mjs ..." script', () => {
    expect(serveNodeArgs('node --max-semi-space-size=8 bin/ncs.mjs serve')).toEqual(['--max-semi-space-size=8']);
    expect(serveNodeArgs('node bin/ncs.mjs serve')).toEqual([]);
    expect(() => serveNodeArgs('tsx bin/ncs.ts serve')).toThrow(/not a "node <flags> bin\/ncs.mjs/);
  });

  it('are those of `npm run serve` and `npm start` alike', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(serveNodeArgs(scripts.serve ?? '')).toEqual(SERVE_NODE_ARGS);
    expect(serveNodeArgs(scripts.start ?? '')).toEqual(SERVE_NODE_ARGS);
    // A bounded young generation: see README "Memory bounds".
    expect(SERVE_NODE_ARGS).toContain('--max-semi-space-size=8');
  });

  it('go before the source entry of every `ncs serve` the bench starts, never before an installed copy', () => {
    const source = serveArgv(NCS_BIN, 4010, ['--fixtures', 'x.json']);
    expect(source.slice(0, SERVE_NODE_ARGS.length + 2)).toEqual([...SERVE_NODE_ARGS, NCS_BIN, 'serve']);
    expect(source.slice(-2)).toEqual(['--fixtures', 'x.json']);
    expect(source).toContain('4010');
    const installed = serveArgv('/tmp/project/node_modules/ncs-sandbox/dist/cli/ncs.js', 4010);
    expect(installed[0]).toBe('/tmp/project/node_modules/ncs-sandbox/dist/cli/ncs.js');
  });
});
