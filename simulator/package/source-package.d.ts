// Types of source-package.js (plain JavaScript: see there why).

export { sourcesHash, sourcesKey, sourcesRecordFile } from './source-key.js';

/**
 * The user's own folder of built packages (0700); undefined when there is none usable.
 * @example packagesDir() // '/home/ana/.cache/ncs-sandbox/bundles'
 */
export function packagesDir(env?: Record<string, string | undefined>): string | undefined;

/**
 * `ncs-main.cjs` of the bundle of the clone's current sources, or undefined (and a background build begun).
 * @example const main = sourceBundle('/work/clone');
 */
export function sourceBundle(root: string, env?: Record<string, string | undefined>): string | undefined;
