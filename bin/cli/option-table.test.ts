import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { REPORT_OPTIONS, RUN_OPTIONS } from '../../conformance/runner/command-options.ts';
import {
  defineOptions,
  listOption,
  optionsFrom,
  parsedOption,
  switchOption,
  textOption,
} from '../../simulator/contract/option-table.ts';
import { addOptions } from './option-table.ts';
import { SERVE_OPTIONS } from '../../simulator/app/serve-options.ts';

const TABLE = defineOptions({
  baseUrl: textOption('--base-url <url>', 'where', 'X_BASE_URL'),
  timeoutMs: parsedOption('--timeout <ms>', 'per request', Number, 'X_TIMEOUT'),
  quiet: switchOption('--quiet', 'no log', 'X_QUIET'),
  hosts: listOption('--allow-host <host...>', 'hosts'),
  inspector: switchOption('--no-inspector', 'no page'),
});

function parse(argv: string[], env: Record<string, string> = {}) {
  const cmd = addOptions(new Command().exitOverride(), TABLE);
  cmd.parse(argv, { from: 'user' });
  return optionsFrom(TABLE, cmd.opts(), env);
}

describe('option tables', () => {
  it('give commander flags, the environment mapping and typed values from one row each', () => {
    const o = parse(['--base-url', 'http://a', '--timeout', '50', '--quiet', '--allow-host', 'a.test', 'b.test']);
    expect(o).toEqual({
      baseUrl: 'http://a',
      timeoutMs: 50,
      quiet: true,
      hosts: ['a.test', 'b.test'],
      inspector: true,
    });
    const fromEnv = parse([], { X_BASE_URL: 'http://env', X_TIMEOUT: '7', X_QUIET: 'yes' });
    expect(fromEnv).toMatchObject({ baseUrl: 'http://env', timeoutMs: 7, quiet: true });
    // A flag wins over its variable; an empty variable counts as absent.
    expect(parse(['--base-url', 'http://flag'], { X_BASE_URL: 'http://env', X_TIMEOUT: '' })).toMatchObject({
      baseUrl: 'http://flag',
    });
    expect(parse(['--no-inspector']).inspector).toBe(false);
    // The type comes from the rows: timeoutMs is a number, quiet a boolean.
    const typed: { timeoutMs?: number; quiet?: boolean } = o;
    void typed;
  });

  it('turn a reader error into a usage error naming the flag', () => {
    const table = defineOptions({
      port: parsedOption('--port <port>', 'port', (t) => {
        if (!/^\d+$/.test(t)) throw new Error('A port is a whole number');
        return Number(t);
      }),
    });
    const cmd = addOptions(new Command().exitOverride().configureOutput({ writeErr: () => {} }), table);
    expect(() => cmd.parse(['--port', 'x'], { from: 'user' })).toThrow(
      /--port <port>' argument 'x' is invalid. A port/,
    );
  });

  it("register every row of the commands' tables under the name commander gives it", () => {
    for (const table of [RUN_OPTIONS, REPORT_OPTIONS, SERVE_OPTIONS])
      expect(() => addOptions(new Command(), table)).not.toThrow();
    expect(() => addOptions(new Command(), { x: textOption('-x, --ex-ample <v>', 'odd') })).not.toThrow();
  });
});
