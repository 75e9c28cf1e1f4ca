// One option table per command: each row says once how an option is spelled on the command line,
// which environment variable sets it, how its text is read and what it is for. Commander's options
// (bin/option-table.ts), the environment mapping and the options type all come from the table.
// Shared by the simulator and the kit, so it lives on their shared floor; it imports nothing.

/** One option of a command. `V` is the value after parsing (switches: boolean). */
export interface OptionRow<V = unknown> {
  /** As commander spells it: '--port <port>', '--webhook-allow-host <host...>', '--quiet', '--no-inspector'. */
  flag: string;
  /** The environment variable that sets it when the flag is absent. */
  env?: string;
  help: string;
  /** Reads the text of a flag or variable; throws with a message naming what is wrong. Switches have none. */
  parse?: (text: string) => V;
  /** Commander's default, shown in --help. */
  default?: V;
}

// biome-ignore lint/suspicious/noExplicitAny: rows of any value type
export type OptionTable = Record<string, OptionRow<any>>;

/** The options a table describes: each key optional, typed by its row's parser. */
export type OptionsOf<T extends OptionTable> = { [K in keyof T]?: T[K] extends OptionRow<infer V> ? V : never };

/**
 * Declares a command's option table, keeping each row's value type.
 * @example const SERVE = defineOptions({ port: intOption('--port <port>', 'port to listen on') });
 */
export function defineOptions<const T extends OptionTable>(table: T): T {
  return table;
}

/** A text option. @example textOption('--tenant <id>', 'tenant for calls', 'NCS_TENANT') */
export const textOption = (flag: string, help: string, env?: string): OptionRow<string> => ({
  flag,
  help,
  ...(env ? { env } : {}),
  parse: (t) => t,
});
/** An option with its own reader. @example parsedOption('--port <port>', 'port', portOption) */
export const parsedOption = <V>(flag: string, help: string, parse: (t: string) => V, env?: string): OptionRow<V> => ({
  flag,
  help,
  parse,
  ...(env ? { env } : {}),
});
/** A switch: present = true; its variable is true for 1, true or yes. @example switchOption('--quiet', 'no log') */
export const switchOption = (flag: string, help: string, env?: string): OptionRow<boolean> => ({
  flag,
  help,
  ...(env ? { env } : {}),
});

/** A repeatable flag (`<host...>`) or a comma-separated variable: the values collected in order. */
export const listOption = (flag: string, help: string, env?: string): OptionRow<string[]> => ({
  flag,
  help,
  ...(env ? { env } : {}),
  parse: (t) =>
    t
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
});

/**
 * The option name commander gives a flag: '--alt-port <port>' -> altPort, '--no-inspector' -> inspector.
 * @example attributeOf('--webhook-allow-host <host...>') // 'webhookAllowHost'
 */
export function attributeOf(flag: string): string {
  const long = /--([\w-]+)/.exec(flag)?.[1] ?? '';
  return long.replace(/^no-/, '').replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());
}

const TRUE = /^(1|true|yes)$/i;

/**
 * The options of a table from the parsed flags (as commander hands them, by attribute name) and the
 * environment: a flag wins over its variable; empty variables count as absent.
 * @example optionsFrom(RUN_OPTIONS, { baseUrl: 'http://127.0.0.1:4010' }, process.env)
 */
export function optionsFrom<T extends OptionTable>(
  table: T,
  flags: Record<string, unknown>,
  env: Record<string, string | undefined> = {},
): OptionsOf<T> {
  const out: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(table)) {
    const given = flags[attributeOf(row.flag)];
    if (given !== undefined) {
      out[key] = given;
      continue;
    }
    const text = row.env ? env[row.env] : undefined;
    if (text === undefined || text === '') continue;
    out[key] = row.parse ? row.parse(text) : TRUE.test(text.trim());
  }
  return out as OptionsOf<T>;
}
