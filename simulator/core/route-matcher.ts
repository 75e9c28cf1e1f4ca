// openapi-backend's path matching, compiled once per document. Its matchOperation flattens the document
// into an operation list (twice, through lodash) and compiles a RegExp per path template on every call,
// and parseRequest compiles the template again for the path parameters: ~150-250 µs for every path the
// router had not seen, so every request naming a new id paid it (GET /connections/{id}, the kit's probes).
// Same answers, by construction below and by a differential test against openapi-backend itself
// (route-matcher.test.ts): exact path first, then templates by literal length, first with the method.
import type { Operation } from 'openapi-backend';

/** What openapi-backend's router is configured with (its defaults: apiRoot '/', trailing slashes ignored). */
export interface MatcherOptions {
  apiRoot?: string;
  ignoreTrailingSlashes?: boolean;
}

export interface OperationMatch {
  operation: Operation;
  /** Path parameters, percent-decoded (decodeURIComponent), as openapi-backend's parseRequest gives them. */
  params: Record<string, string>;
}

interface Compiled {
  operation: Operation;
  /** `^literal[^/]+literal$`: which paths the template matches (openapi-backend's pathTemplateToPattern). */
  matches: RegExp;
  /** The same with `([^/]*)` groups, as bath-es5 reads the parameters. */
  reads: RegExp;
  names: string[];
}

const escapeRegExp = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(operation: Operation): Compiled {
  const path = operation.path;
  const matches = new RegExp(
    `^${path
      .replace(/\{[^}]+\}/g, '\0')
      .split('\0')
      .map(escapeRegExp)
      .join('[^/]+')}$`,
  );
  const reads = new RegExp(`^${path.replace(/\{[A-Za-z0-9_-]+\}/g, '([^\\/]*)')}$`);
  const names = (path.match(/\{[A-Za-z0-9_-]+\}/g) ?? []).map((n) => n.slice(1, -1));
  return { operation, matches, reads, names };
}

/** bath-es5's params(): the groups decoded; null where a name repeats with another value. */
function readParams(c: Compiled, path: string): Record<string, string> {
  const m = c.reads.exec(path);
  if (!m) return {};
  const params: Record<string, string> = {};
  for (const [i, name] of c.names.entries()) {
    const value = decodeURIComponent(m[i + 1] ?? '');
    if (name in params && params[name] !== value) return {};
    params[name] = value;
  }
  return params;
}

/**
 * A matcher over openapi-backend's flattened operations (`backend.router.getOperations()`), answering what
 * `router.matchOperation` and `router.parseRequest(...).params` answer, without their per-call work.
 * @example const m = compileMatcher(backend.router.getOperations()); m.match('GET', '/api/public/v1/connections/con_1')
 */
export function compileMatcher(operations: Operation[], opts: MatcherOptions = {}) {
  const apiRoot = opts.apiRoot ?? '/';
  const root = apiRoot.replace(/\/$/, '');
  const ignoreTrailingSlashes = opts.ignoreTrailingSlashes ?? true;
  const compiled = operations.map(compile);
  const byPath = new Map<string, Compiled[]>();
  for (const c of compiled) {
    const same = byPath.get(c.operation.path);
    if (same) same.push(c);
    else byPath.set(c.operation.path, [c]);
  }
  // lodash's orderBy is stable: the document's order among templates of the same literal length.
  const literalLength = (c: Compiled) => c.operation.path.replace(/\{.*?\}/g, '').length;
  const bySpecificity = [...compiled].sort((a, b) => literalLength(b) - literalLength(a));

  const underRoot = (path: string) =>
    apiRoot === '/' ? path.startsWith('/') : path === root || path.startsWith(`${root}/`);
  const normalizePath = (input: string) => {
    let path = input.trim();
    if (apiRoot !== '/') {
      if (path === root) path = '/';
      else if (path.startsWith(`${root}/`)) path = path.slice(root.length) || '/';
    }
    while (ignoreTrailingSlashes && path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    return path;
  };

  return {
    match(method: string, rawPath: string): OperationMatch | undefined {
      let path = rawPath.trim();
      if (!path.startsWith('/')) path = `/${path}`;
      path = path.split('?')[0] ?? '';
      const verb = method.trim().toLowerCase();
      if (!underRoot(path)) return undefined;
      const normalized = normalizePath(path);
      const found =
        byPath.get(normalized)?.find((c) => c.operation.method === verb) ??
        bySpecificity.find((c) => c.operation.method === verb && c.matches.test(normalized));
      return found && { operation: found.operation, params: readParams(found, normalized) };
    },
  };
}
