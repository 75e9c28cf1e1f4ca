import { describe, expect, it } from 'vitest';
import { warningLines } from './output-warnings.ts';

describe('warningLines', () => {
  it('finds engine, experimental and deprecation warnings', () => {
    const out = [
      'added 105 packages in 14s',
      'npm warn EBADENGINE Unsupported engine {',
      '(node:18437) ExperimentalWarning: SQLite is an experimental feature',
      'npm warn deprecated inflight@1.0.6: This module is not supported',
    ].join('\n');
    expect(warningLines(out)).toHaveLength(3);
  });

  it("ignores this machine's npm configuration notice and ordinary output", () => {
    const out = 'npm warn Unknown user config "nodedir". This will stop working\nimports ok\n';
    expect(warningLines(out)).toEqual([]);
  });
});
