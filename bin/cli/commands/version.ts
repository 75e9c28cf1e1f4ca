// `ncs --version`, `-V`, `-v` and `ncs version`: the package's version, exit 0.
import { readFileSync } from 'node:fs';
import { type Command, CommanderError, Option } from 'commander';

/**
 * The version in the package's manifest: three folders up from bin/cli/commands/ in a clone, two up from
 * dist/cli/ once installed (the bundle keeps this module's relative read).
 * @example packageVersion() // '0.1.0'
 */
export function packageVersion(): string {
  const relative = import.meta.url.endsWith('.ts') ? '../../../package.json' : '../../package.json';
  const manifest = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** Adds `-V, --version`, the `-v` many tools accept, and `ncs version` (after every other command). @example registerVersion(program) */
export function registerVersion(program: Command): void {
  const version = packageVersion();
  // The program's own options count only before a command: `ncs openapi --version 2026-06-12` is
  // openapi's option. Set on the program alone, after its commands exist (they would inherit it, and
  // `ncs sandbox state --base-url u` must keep working): so call this last.
  program.enablePositionalOptions();
  program.version(version, '-V, --version', 'print the version');
  program.addOption(new Option('-v', 'print the version').hideHelp());
  program.on('option:v', () => {
    process.stdout.write(`${version}\n`);
    throw new CommanderError(0, 'commander.version', version);
  });
  program
    .command('version')
    .description('print the version')
    .action(() => {
      process.stdout.write(`${version}\n`);
    });
}
