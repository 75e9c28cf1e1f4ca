/**
 * Stands in for the `undici` package inside the CLI bundle: undici (1.3 MB, ~110 modules) loads on
 * the first request the kit makes, so `ncs serve`, which never makes one, starts without it. The
 * kit imports only `fetch` from undici; the build fails if that changes (esbuild reports the
 * missing export).
 * @example await fetch('http://127.0.0.1:4010/api/public/v1')
 */
export const fetch: typeof import('undici').fetch = async (input, init) => (await import('undici')).fetch(input, init);
