import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReportFile } from './safe-write.ts';

describe('writeReportFile', () => {
  it('replaces a symlink planted at the report name instead of writing through it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'safe-write-'));
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, join(dir, 'report.json'));
    writeReportFile(join(dir, 'report.json'), 'report\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('report\n');
    expect(readdirSync(dir).sort()).toEqual(['report.json', 'victim.txt']);
  });
});
