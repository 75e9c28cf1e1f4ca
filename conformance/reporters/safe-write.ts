import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes `text` to `file` without following a link planted at that name: the text goes to a fresh temporary file
 * in the same folder (created exclusively, so it cannot be a link either) and is renamed into place; rename replaces
 * a symlink itself, never its target, so a report cannot overwrite a file outside the output folder.
 * @example writeReportFile('out/conformance.json', '{}\n')
 */
export function writeReportFile(file: string, text: string): void {
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  writeFileSync(tmp, text, { flag: 'wx' });
  try {
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
