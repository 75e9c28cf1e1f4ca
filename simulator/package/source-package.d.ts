// Types of source-package.js (plain JavaScript: see there why).

/**
 * The hash of every file the package is built from, and of the clone's folder.
 * @example sourcesHash('/work/clone') // '287f24a00f9993cdc998'
 */
export function sourcesHash(root: string): string;

/**
 * The user's own folder of built packages (0700); undefined when there is none usable.
 * @example packagesDir() // '/home/ana/.cache/ncs-sandbox/bundles'
 */
export function packagesDir(env?: Record<string, string | undefined>): string | undefined;

/**
 * `ncs-main.js` of the bundle of the clone's current sources, or undefined (and a background build begun).
 * @example const main = sourceBundle('/work/clone');
 */
export function sourceBundle(root: string, env?: Record<string, string | undefined>): string | undefined;
