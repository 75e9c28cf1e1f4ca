// Matches a method and path against the route table (`{param}` is one segment; `:verb` custom methods).
import { ROUTES, type Route } from './routes.ts';

const compiled = ROUTES.map((r) => ({
  route: r,
  re: new RegExp(`^${r.path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '([A-Za-z0-9_-][A-Za-z0-9._-]*?)')}$`),
}));

/** The route for a method and path, or the reason there is none. */
export function match(method: string, path: string): { route: Route; params: string[] } | undefined {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  for (const { route, re } of compiled) {
    const m = re.exec(trimmed);
    if (m && route.method === method) return { route, params: m.slice(1).map((x) => decodeURIComponent(x)) };
  }
  return undefined;
}
