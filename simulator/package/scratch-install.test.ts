import { describe, expect, it } from 'vitest';
import { lockedRuntimeVersions } from './scratch-install.ts';

describe('lockedRuntimeVersions', () => {
  it('pins what users install at its locked version, leaving out dev-only packages and names locked twice', () => {
    const lock = JSON.stringify({
      packages: {
        '': { name: 'ncs-sandbox', version: '0.1.0' },
        'node_modules/msw': { version: '3.0.5' },
        'node_modules/tldts': { version: '7.5.4' },
        'node_modules/@msw/data': { version: '1.1.7' },
        'node_modules/vitest': { version: '5.1.0', dev: true },
        'node_modules/cookie': { version: '1.0.2' },
        'node_modules/msw/node_modules/cookie': { version: '0.7.2' },
      },
    });
    expect(lockedRuntimeVersions(lock)).toEqual({ msw: '3.0.5', tldts: '7.5.4', '@msw/data': '1.1.7' });
  });

  it("reads this repository's lockfile by default", () => {
    expect(lockedRuntimeVersions().zod).toMatch(/^4\./);
  });
});
