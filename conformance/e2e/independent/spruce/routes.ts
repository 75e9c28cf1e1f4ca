// Route rows and the router. The table itself is in route-table.ts; the router, the self-description
// and the OpenAPI document are all generated from it, so what we describe is what we serve.
import type { Deps } from './deps.ts';
import type { Ctx } from './http-kit.ts';
import { ROUTES } from './route-table.ts';

export interface Call {
  ctx: Ctx;
  deps: Deps;
  params: Record<string, string>;
  body: Record<string, unknown>;
  tenant: string;
  clientId: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  operationId: string;
  /** public: no token; read/write: the app role the token must carry. */
  access: 'public' | 'read' | 'write';
  key: 'required' | 'optional' | 'none';
  /** Part of the published interface table (the rest are our additions). */
  core: boolean;
  /** The first version that has it. */
  since?: string;
  validate?: (body: Record<string, unknown>) => unknown;
  run?: (call: Call, input: unknown) => unknown;
}

export { ROUTES };

const compiled = ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/:]+)';
  });
  return { route, names, re: new RegExp(`^${source}$`) };
});

/** The route for a path and method; `pathKnown` tells a wrong method from an unknown path. */
export function match(
  method: string,
  path: string,
): { route?: Route; params: Record<string, string>; pathKnown: boolean } {
  let pathKnown = false;
  for (const c of compiled) {
    const m = c.re.exec(path);
    if (!m) continue;
    pathKnown = true;
    if (c.route.method !== method) continue;
    const params: Record<string, string> = {};
    c.names.forEach((n, i) => {
      params[n] = safeDecode(m[i + 1] ?? '');
    });
    return { route: c.route, params, pathKnown };
  }
  return { params: {}, pathKnown };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
