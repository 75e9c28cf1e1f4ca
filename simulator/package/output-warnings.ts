/**
 * What this machine's npm says about its own configuration, not about the package: the lines the
 * install check ignores. Everything else that looks like a warning fails the check.
 */
export const MACHINE_NOISE: readonly RegExp[] = [/npm warn Unknown user config "nodedir"/];

const WARNING = /\bwarn(ing)?\b|EBADENGINE|ExperimentalWarning|DeprecationWarning|deprecated/i;

/**
 * The lines of a command's output a user would read as a warning (engine mismatch, experimental
 * feature, deprecation), minus known machine noise.
 * @example warningLines('npm warn EBADENGINE Unsupported engine') // ['npm warn EBADENGINE Unsupported engine']
 */
export function warningLines(output: string, ignore: readonly RegExp[] = MACHINE_NOISE): string[] {
  return output.split(/\r?\n/).filter((line) => WARNING.test(line) && !ignore.some((re) => re.test(line)));
}
