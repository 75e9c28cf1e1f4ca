import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { sourcesHash, sourcesKey, sourcesRecordFile } from './source-key.js';

describe('sourcesHash (which cached ncs bundle a start or a test run may use)', () => {
  const root = mkdtempSync(join(tmpdir(), 'ncs-sources-hash-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const dir of ['bin', 'simulator', 'conformance']) mkdirSync(join(root, dir), { recursive: true });
  write('package.json', '{"version":"1.0.0"}');
  write('fixtures/hospitality.json', '{}');
  write('node_modules/.package-lock.json', '{"packages":{}}');
  write('simulator/app/serve.ts', 'export const a = 1;');

  it('changes with a source, the fixtures, package.json or the installed dependencies', () => {
    const before = sourcesHash(root);
    expect(sourcesHash(root)).toBe(before);
    for (const [file, text] of [
      ['simulator/app/serve.ts', 'export const a = 2;'],
      ['conformance/checks/new-check.ts', 'export {};'],
      ['fixtures/hospitality.json', '{"providers":[]}'],
      ['package.json', '{"version":"1.0.1"}'],
      ['node_modules/.package-lock.json', '{"packages":{"x":{}}}'],
    ] as const) {
      const previous = sourcesHash(root);
      write(file, text);
      expect(sourcesHash(root), file).not.toBe(previous);
    }
  });

  it('works without npm’s node_modules/.package-lock.json (another package manager), and notices it appear', () => {
    const other = mkdtempSync(join(tmpdir(), 'ncs-sources-hash-'));
    try {
      for (const dir of ['bin', 'simulator', 'conformance', 'fixtures'])
        mkdirSync(join(other, dir), { recursive: true });
      writeFileSync(join(other, 'package.json'), '{}');
      writeFileSync(join(other, 'fixtures/hospitality.json'), '{}');
      const without = sourcesHash(other);
      mkdirSync(join(other, 'node_modules'));
      writeFileSync(join(other, 'node_modules/.package-lock.json'), '{}');
      expect(sourcesHash(other)).not.toBe(without);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('ignores tests, end-to-end suites and benchmarks, which are not in the bundle', () => {
    const before = sourcesHash(root);
    write('simulator/app/serve.test.ts', 'it();');
    write('simulator/e2e/x.e2e.test.ts', 'it();');
    write('simulator/e2e/helper.ts', 'export {};');
    write('simulator/bench/run.ts', 'export {};');
    expect(sourcesHash(root)).toBe(before);
  });
});

describe('sourcesKey (the same key, read from a stat record while no file changed)', () => {
  const root = mkdtempSync(join(tmpdir(), 'ncs-sources-key-'));
  const dir = mkdtempSync(join(tmpdir(), 'ncs-sources-records-'));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const d of ['bin', 'simulator/app', 'conformance']) mkdirSync(join(root, d), { recursive: true });
  write('package.json', '{"version":"1.0.0"}');
  write('fixtures/hospitality.json', '{}');
  write('simulator/app/serve.ts', 'export const a = 1;');
  write('simulator/app/other.ts', 'export const b = 1;');
  const record = sourcesRecordFile(root, dir);
  /** An edit of the same size with the modification time put back, as `cp -p`, `tar` or `touch -r` leave one. */
  const sameSizeAndTime = (path: string, text: string) => {
    const { atime, mtime, size } = statSync(join(root, path));
    writeFileSync(join(root, path), text);
    utimesSync(join(root, path), atime, mtime);
    expect(statSync(join(root, path)).size).toBe(size);
  };
  /** Lets every file age past a racy window of 100 ms, then records. */
  const settle = async () => {
    await sleep(150);
    expect(sourcesKey(root, dir, 100)).toBe(sourcesHash(root));
    expect(existsSync(record)).toBe(true);
  };

  it('records nothing while files are inside the racy window: an edit keeping size and time is still seen', () => {
    const first = sourcesKey(root, dir, 60_000);
    expect(first).toBe(sourcesHash(root));
    expect(existsSync(record)).toBe(false);
    sameSizeAndTime('simulator/app/serve.ts', 'export const a = 2;');
    expect(sourcesKey(root, dir, 60_000)).not.toBe(first);
    expect(sourcesKey(root, dir, 60_000)).toBe(sourcesHash(root));
  });

  it('once files are older than the window, the key comes from the record without reading them', async () => {
    await settle();
    // The record is what answers: a key planted in it comes back while no stat changed.
    const planted = JSON.parse(readFileSync(record, 'utf8'));
    writeFileSync(record, JSON.stringify({ ...planted, key: 'from-the-record' }));
    expect(sourcesKey(root, dir, 100)).toBe('from-the-record');
    writeFileSync(record, JSON.stringify({ ...planted, root: '/elsewhere', key: 'another-clone' }));
    expect(sourcesKey(root, dir, 100)).toBe(sourcesHash(root));
  });

  it('an edit keeping size and modification time right after a record is seen (its change time moved)', async () => {
    await settle();
    const before = sourcesKey(root, dir, 100);
    sameSizeAndTime('simulator/app/serve.ts', 'export const a = 3;');
    const after = sourcesKey(root, dir, 100);
    expect(after).not.toBe(before);
    expect(after).toBe(sourcesHash(root));
  });

  it('a file added, removed, renamed over another, or npm’s lock file appearing, is seen', async () => {
    const changes: Array<() => void> = [
      () => write('conformance/new-check.ts', 'export {};'),
      () => rmSync(join(root, 'conformance/new-check.ts')),
      () => {
        write('simulator/app/other-copy.ts', 'export const b = 9;');
        renameSync(join(root, 'simulator/app/other-copy.ts'), join(root, 'simulator/app/other.ts'));
      },
      () => write('node_modules/.package-lock.json', '{}'),
    ];
    for (const change of changes) {
      await settle();
      const before = sourcesKey(root, dir, 100);
      change();
      const after = sourcesKey(root, dir, 100);
      expect(after).not.toBe(before);
      expect(after).toBe(sourcesHash(root));
    }
  });
});
