// How every command reports what stopped it: one line on stderr, exit code 2.
import type { Command } from 'commander';

/** Collapses a message onto one line. */
const oneLine = (text: string) => text.trim().replace(/\s*\n\s*/g, ' ');

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
          .replace(/\s*\n\s*/g, ' ')
          .replace(/\.$/, '')}; see ${name} --help\n`,
      ),
  });
  // A command of commands called without one (`ncs`, `ncs webhook`): commander prints the whole help
  // as an error; one line naming the choices instead, like every other usage error (exit 2).
  if (cmd.commands.length > 0) {
    const help = cmd.help.bind(cmd);
    cmd.help = ((context?: { error: boolean }) => {
      if (!context?.error) return context ? help(context) : help();
      const names = cmd.commands.map((c) => c.name()).filter((n) => n !== 'help');
      return cmd.error(`a command is missing: ${names.join(', ')}`, { exitCode: 2, code: 'ncs.missingCommand' });
    }) as Command['help'];
  }
  for (const sub of cmd.commands) oneLineErrors(sub);
}

/** The command running now, named in failure lines ("ncs sandbox state: cannot reach …"). */
let running = 'ncs';

/**
 * Remembers which command runs, so a failure names it.
 * @example trackRunningCommand(program);
 */
export function trackRunningCommand(program: Command): void {
  program.hook('preAction', (_program, action) => {
    running = fullName(action);
  });
}

/**
 * Prints why a command stopped (one line, no stack) and exits with 2.
 * @example program.parseAsync().catch(reportFailure);
 */
export function reportFailure(err: unknown): never {
  process.stderr.write(`${running}: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
  process.exit(2);
}
