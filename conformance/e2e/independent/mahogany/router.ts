// Matches a method and path against the route table.
import { ROUTES } from './routes.ts';

function safeDecode(s: string) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const compiled = ROUTES.map((r) => ({
  route: r,
  names: [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string),
  re: new RegExp(`^${r.path.replace(/[.$]/g, '\\$&').replace(/\{\w+\}/g, '([^/]+?)')}$`),
}));

/** The route for a method and path: its parameters, or the methods the path allows. */
export function match(method: string, path: string) {
  const allowed: string[] = [];
  for (const c of compiled) {
    const m = c.re.exec(path);
    if (!m) continue;
    if (c.route.method !== method) {
      allowed.push(c.route.method);
      continue;
    }
    const params: Record<string, string> = {};
    c.names.forEach((n, i) => {
      params[n] = safeDecode(m[i + 1] ?? '');
    });
    return { route: c.route, params, allowed };
  }
  return { route: undefined, params: {}, allowed };
}
