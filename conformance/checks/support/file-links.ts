// Description files a deployment names as values (a `documents.yaml` link in the self-description, an `x-`
// list of files in openapi.json): their paths are not shown, so the kit reads what is published.

/** At most this many description files are taken from one document. */
const MAX_FILES = 16;
/** At most this many values of a document are looked at for file links (a hostile one may hold millions). */
const MAX_LINK_NODES = 5_000;

/**
 * Paths of description files (`.yaml`, `.yml`, `.json`) named anywhere in a JSON value: a path on the target
 * (`/…`), or a URL on the target's own origin read as its path; a URL elsewhere is never followed.
 * @example listedFiles({ documents: { yaml: '/api/public/v1/openapi/2026-07-01.yaml' } }, 'http://127.0.0.1:4010') // ['/api/public/v1/openapi/2026-07-01.yaml']
 */
export function listedFiles(value: unknown, baseUrl: string): string[] {
  const origin = (() => {
    try {
      return new URL(baseUrl).origin;
    } catch {
      return undefined;
    }
  })();
  const out = new Set<string>();
  let seen = 0;
  const file = /^[^?#\s]{1,300}\.(?:ya?ml|json)$/i;
  const walk = (v: unknown, depth: number) => {
    if (++seen > MAX_LINK_NODES || depth > 12) return;
    if (typeof v === 'string') {
      let path: string | undefined;
      if (v.startsWith('/') && !v.startsWith('//')) path = v;
      else if (/^https?:\/\//i.test(v) && v.length <= 400)
        try {
          const u = new URL(v);
          if (u.origin === origin) path = u.pathname;
        } catch {
          // Not a URL: not a link.
        }
      if (path && file.test(path)) out.add(path);
    } else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(value, 0);
  return [...out].slice(0, MAX_FILES);
}
