import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SERVE_NODE_ARGS, serveNodeArgs } from './processes.ts';

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
});
