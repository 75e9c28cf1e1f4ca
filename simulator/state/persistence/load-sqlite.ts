/**
 * node:sqlite, loaded without the "SQLite is an experimental feature" ExperimentalWarning Node 22
 * prints when it first loads (a user of `--data-dir` cannot act on it; Node 24 no longer prints it).
 * Only that warning is held back, and only while the module loads: every other warning still shows.
 * @example const { DatabaseSync } = loadSqlite();
 */
export function loadSqlite(): typeof import('node:sqlite') {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (isSqliteExperimentalWarning(warning, rest[0])) return;
    return (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule('node:sqlite') as typeof import('node:sqlite');
  } finally {
    process.emitWarning = emit;
  }
}

/** Whether an emitted warning is node:sqlite's experimental notice (type as a string or in options). */
function isSqliteExperimentalWarning(warning: string | Error, typeOrOptions: unknown): boolean {
  const type =
    typeof typeOrOptions === 'string'
      ? typeOrOptions
      : ((typeOrOptions as { type?: string } | undefined)?.type ?? (warning instanceof Error ? warning.name : ''));
  const text = typeof warning === 'string' ? warning : warning.message;
  return type === 'ExperimentalWarning' && /^SQLite is an experimental feature/.test(text);
}
