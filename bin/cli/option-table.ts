// Commander options from an option table (simulator/contract/option-table.ts): the one place a
// table becomes flags, so a command declares each option once.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { attributeOf, type OptionTable } from '../../simulator/contract/option-table.ts';

/**
 * Adds every row of a table to a command; a row's parser errors become commander's usage errors.
 * @example addOptions(program.command('serve'), SERVE_OPTIONS).action((flags) => ...)
 */
export function addOptions(command: Command, table: OptionTable): Command {
  for (const row of Object.values(table)) {
    const help = row.env ? `${row.help} (env ${row.env})` : row.help;
    const option = new Option(row.flag, help);
    // The table reads commander's result by this name: a flag commander names otherwise is a table bug.
    if (option.attributeName() !== attributeOf(row.flag))
      throw new Error(`option table: ${row.flag} is named ${option.attributeName()} by commander`);
    const parse = row.parse;
    if (parse)
      option.argParser((text: string, previous: unknown) => {
        try {
          const value = parse(text);
          // Variadic flags (<host...>) collect their values (a list row parses each to an array).
          if (!option.variadic) return value;
          return [...((previous as unknown[] | undefined) ?? []), ...(Array.isArray(value) ? value : [value])];
        } catch (err) {
          throw new InvalidArgumentError((err as Error).message);
        }
      });
    if (row.default !== undefined) option.default(row.default);
    command.addOption(option);
  }
  return command;
}
