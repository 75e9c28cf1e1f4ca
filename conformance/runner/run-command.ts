import { createReporters, REPORTER_NAMES, type Reporter } from '../reporters/index.ts';
import type { ProfileName } from './check.ts';
import { optionsFromEnv, type ConformanceOptions } from './options.ts';
import { runConformance } from './run.ts';

/** The flags of `ncs conformance run` as commander hands them over (strings). */
export interface RunCommandFlags {
  baseUrl?: string;
  altBaseUrl?: string;
  tenant?: string;
  token?: string;
  clientId?: string;
  clientSecret?: string;
  tokenUrl?: string;
  scope?: string;
  otherTenant?: string;
  foreignTenant?: string;
  adminToken?: string;
  profile?: string;
  environment?: string;
  allowMutations?: boolean;
  grep?: string;
  reporter?: string;
  output?: string;
  timeout?: string;
  concurrency?: string;
  deploymentProfile?: string;
  seed?: string;
}

export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  color?: boolean;
}

const defaultIo = (): CommandIo => ({
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  env: process.env,
});

/** Flags win over NCS_* variables; absent flags leave the variables in force. */
export function commandOptions(flags: RunCommandFlags, env: Record<string, string | undefined>): ConformanceOptions {
  const o: ConformanceOptions = optionsFromEnv(env);
  const strings = [
    'baseUrl',
    'altBaseUrl',
    'tenant',
    'token',
    'clientId',
    'clientSecret',
    'tokenUrl',
    'scope',
    'otherTenant',
    'foreignTenant',
    'adminToken',
    'environment',
    'grep',
    'deploymentProfile',
  ] as const;
  for (const key of strings) if (flags[key] !== undefined) o[key] = flags[key];
  if (flags.profile !== undefined) o.profile = flags.profile as ProfileName;
  if (flags.allowMutations) o.allowMutations = true;
  if (flags.timeout !== undefined) o.timeoutMs = Number(flags.timeout);
  if (flags.concurrency !== undefined) o.concurrency = Number(flags.concurrency);
  if (flags.seed !== undefined) o.seed = Number(flags.seed);
  return o;
}

/**
 * `ncs conformance run`: runs the kit with the chosen reporters; resolves to the exit code
 * (0 every MUST passed, 1 a MUST failed, 2 usage or connection error).
 * @example process.exitCode = await runConformanceCommand({ baseUrl: 'http://127.0.0.1:4010', reporter: 'console,junit' });
 */
export async function runConformanceCommand(flags: RunCommandFlags, io: CommandIo = defaultIo()): Promise<number> {
  const names = (flags.reporter ?? io.env.NCS_REPORTER ?? 'console')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(REPORTER_NAMES as readonly string[]).includes(n));
  if (unknown.length || names.length === 0) {
    io.stderr(
      `ncs conformance run: --reporter takes ${REPORTER_NAMES.join(', ')} (comma-separated), not ${unknown.join(', ') || 'nothing'}\n`,
    );
    return 2;
  }
  const reporters: Reporter[] = createReporters(names, {
    outputDir: flags.output ?? io.env.NCS_OUTPUT ?? 'conformance-results',
    console: { write: io.stdout, ...(io.color !== undefined ? { color: io.color } : {}) },
  });
  const result = await runConformance({
    ...commandOptions(flags, io.env),
    onEvent: (e) =>
      reporters.forEach((r) => {
        r.onEvent(e);
      }),
  });
  await Promise.all(reporters.map((r) => r.done()));
  if (result.error) io.stderr(`ncs conformance run: ${result.error}\n`);
  return result.exitCode;
}
