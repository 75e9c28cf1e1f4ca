import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe } from 'vitest';
import { behaviourSuite } from './behaviour/index.ts';
import { httpTarget } from './harness.ts';

// The same behaviour suite with the state written through to SQLite (--data-dir): every sandbox the
// suite starts gets a fresh folder.
describe('behaviour over node:http with --data-dir (SQLite)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  behaviourSuite((options = {}) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ncs-suite-sqlite-'));
    dirs.push(dataDir);
    return httpTarget({ ...options, dataDir });
  });
});
