// How every command reports what stopped it: one line on stderr, exit code 2.
import type { Command } from 'commander';

/** The command's full name, e.g. "ncs conformance run". */
function fullName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Makes commander's usage errors (unknown option, bad value, missing argument) one line naming the
 * command and where its help is, for this command and all below it.
 * @example oneLineErrors(program) // "ncs serve: unknown option '--prot' (Did you mean --port?); see ncs serve --help"
 */
export function oneLineErrors(cmd: Command): void {
  const name = fullName(cmd);
  cmd.configureOutput({
    outputError: (text, write) =>
      write(
        `${name}: ${text
          .replace(/^error:\s*/i, '')
          .trim()
          .replace(/\s*\n\s*/g, ' ')}; see ${name} --help\n`,
      ),
  });
  for (const sub of cmd.commands) oneLineErrors(sub);
}

/**
 * Prints why a command stopped (one line, no stack) and exits with 2.
 * @example program.parseAsync().catch(reportFailure);
 */
export function reportFailure(err: unknown): never {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`ncs: ${message.trim().replace(/\s*\n\s*/g, ' ')}\n`);
  process.exit(2);
}
