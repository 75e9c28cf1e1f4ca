import { chmodSync, chownSync, mkdirSync, mkdtempSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheDirProblem, userCompileCacheDir } from './compile-cache.js';

describe('compile cache folder (issue 23 item 12)', () => {
  it('is per user: XDG_CACHE_HOME, ~/.cache, ~/Library/Caches, LOCALAPPDATA; a per-uid tmp folder without a home', () => {
    expect(userCompileCacheDir({ XDG_CACHE_HOME: '/c' }, 'linux', '/home/ana', 1000)).toBe(
      '/c/ncs-sandbox/compile-cache',
    );
    expect(userCompileCacheDir({}, 'linux', '/home/ana', 1000)).toBe('/home/ana/.cache/ncs-sandbox/compile-cache');
    expect(userCompileCacheDir({}, 'darwin', '/Users/ana', 501)).toBe(
      '/Users/ana/Library/Caches/ncs-sandbox/compile-cache',
    );
    expect(userCompileCacheDir({}, 'linux', '', 1000)).toBe(join(tmpdir(), 'ncs-sandbox-compile-cache-1000'));
  });

  it('creates it owner-only, tightens a loose one of ours, refuses a symbolic link', () => {
    const root = mkdtempSync(join(tmpdir(), 'ncs-cc-'));
    const uid = process.getuid!();
    const fresh = join(root, 'a', 'b');
    expect(cacheDirProblem(fresh, uid)).toBeUndefined();
    expect(statSync(fresh).mode & 0o777).toBe(0o700);
    const loose = join(root, 'loose');
    mkdirSync(loose);
    chmodSync(loose, 0o777);
    expect(cacheDirProblem(loose, uid)).toBeUndefined();
    expect(statSync(loose).mode & 0o777).toBe(0o700);
    const link = join(root, 'link');
    symlinkSync(fresh, link);
    expect(cacheDirProblem(link, uid)).toMatch(/symbolic link/);
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a folder another user created first (run as root to chown)', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ncs-cc-')), 'planted');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    chownSync(dir, 65534, 65534);
    expect(cacheDirProblem(dir, 0)).toBe(`${dir} belongs to another user (uid 65534)`);
    expect(statSync(dir).mode & 0o777).toBe(0o777); // not touched
  });
});
