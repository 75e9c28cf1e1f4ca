// The request pipeline, like a Rails controller's before_actions: match the route (404), then for an
// authenticated route the bearer token (401), the rate limit (429, headers from here on), the tenant
// (400/403), then the action. Anything unexpected is a 500 with the failure envelope and no internals.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, authorizeTenant, metadata, TOKEN_PATH, takeToken, tokenEndpoint } from './auth.ts';
import { ApiError, CURRENT_VERSION, fail, header, newCall } from './http.ts';
import { ROUTES, type Route } from './routes.ts';
import type { State } from './state.ts';

function match(method: string, path: string): { route: Route; params: string[] } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const re = new RegExp(`^${route.path.replace(/\{id\}/g, '([^/]+)')}$`);
    const m = re.exec(path);
    if (m) return { route, params: m.slice(1).map(decodeURIComponent) };
  }
  return undefined;
}

export async function handle(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const call = newCall(req, res);
  const path = call.url.pathname.length > 1 ? call.url.pathname.replace(/\/$/, '') : call.url.pathname;
  try {
    if (path === TOKEN_PATH) return await tokenEndpoint(state, req, res);
    if (path === '/.well-known/oauth-authorization-server' && req.method === 'GET') {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      return void res.end(JSON.stringify(metadata(call.origin)));
    }
    const found = match(req.method ?? 'GET', path);
    if (!found) throw new ApiError('not_found', 'No route matches this method and path');
    if (state.options.serviceVersionRequired && !header(req, 'service-version')) {
      throw new ApiError(
        'invalid_request',
        'Header Service-Version is required',
        `send Service-Version: ${CURRENT_VERSION}`,
      );
    }
    if (found.route.auth) {
      authenticate(state, call);
      takeToken(state, call);
      authorizeTenant(state, call);
    }
    await found.route.handler(state, call, found.params);
  } catch (err) {
    if (err instanceof ApiError) fail(call, err);
    else
      fail(
        call,
        new ApiError('internal', 'Something went wrong on our side', undefined, 'quote the requestId to support'),
      );
  }
}
