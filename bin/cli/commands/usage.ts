// What every command shares about usage: the error that means exit code 2 and the option parsers that
// turn a bad value into one clear line before anything starts.
import { InvalidArgumentError } from 'commander';

/** A mistake in how the command was called (bad value, unreadable or wrong file): exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * Commander parser for a TCP port (0 = any free one).
 * @example new Option('--port <port>').argParser(portOption)
 */
export function portOption(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535)
    throw new InvalidArgumentError('A port is a whole number from 0 to 65535');
  return Number(value);
}

/**
 * Commander parser for a whole number of at least 1 (a count, seconds, milliseconds).
 * @example program.option('--count <n>', 'how many', positiveIntOption)
 */
export function positiveIntOption(value: string): number {
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('Expected a whole number of at least 1');
  return Number(value);
}

/**
 * Commander parser for a whole number of at least 0.
 * @example program.option('--latency <ms>', 'added latency', nonNegativeIntOption)
 */
export function nonNegativeIntOption(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new InvalidArgumentError('Expected a whole number of at least 0');
  return Number(value);
}

/** Prints an answer as indented JSON on stdout (the sandbox commands' output). */
export const print = (data: unknown): void => {
  process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
};
/** A bad option value the library turns down is a usage error (exit code 2). */
export const asUsage = <T>(fn: () => T): T => {
  try {
    return fn();
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
};
