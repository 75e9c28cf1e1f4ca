// The OAuth client-credentials token endpoint (Kong's OAuth2 plugin style, at /oauth2/token on either port),
// bearer-token checks, the tenant header, and the rate-limit window counted per access and tenant.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { State } from './state.ts';
import { ApiError, type Ctx, nanoid, readRaw } from './util.ts';

function tokenError(res: ServerResponse, status: number, error: string, description: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (status === 401) headers['www-authenticate'] = 'Basic realm="hickory"';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ error, error_description: description }));
}

export async function tokenEndpoint(state: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = new URLSearchParams(await readRaw(req));
  let id = form.get('client_id') ?? '';
  let secret = form.get('client_secret') ?? '';
  const basic = /^Basic\s+(.+)$/i.exec(String(req.headers.authorization ?? ''));
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    id = decodeURIComponent(decoded.slice(0, colon));
    secret = decodeURIComponent(decoded.slice(colon + 1));
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return tokenError(res, 400, 'unsupported_grant_type', 'Only client_credentials is offered.');
  }
  if (id !== state.clientId || secret !== state.clientSecret) {
    return tokenError(res, 401, 'invalid_client', 'Client authentication failed.');
  }
  const token = `hk_at_${nanoid()}${nanoid()}`;
  state.tokens.set(token, { clientId: id, expiresAt: Date.now() + state.options.tokenTtlS * 1000 });
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(
    JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: state.options.tokenTtlS,
      scope: form.get('scope') ?? 'connections catalog webhooks audit',
    }),
  );
}

export function metadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    token_endpoint: `${origin}/oauth2/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: [],
  };
}

/** Bearer token -> ctx.clientId, or 401. */
export function authenticate(state: State, ctx: Ctx): void {
  const m = /^Bearer\s+(\S+)$/i.exec(String(ctx.req.headers.authorization ?? ''));
  const token = m?.[1] ? state.tokens.get(m[1]) : undefined;
  if (!token || token.expiresAt <= Date.now()) {
    ctx.headers['www-authenticate'] = 'Bearer realm="hickory"';
    throw new ApiError('unauthorized', 'The access token is missing, invalid or expired.', {
      hint: 'Request a new access token at /oauth2/token.',
    });
  }
  ctx.clientId = token.clientId;
}

/** Counts the call in a fixed window per access and tenant and sets the headers; 429 past the limit. */
export function countCall(state: State, ctx: Ctx): void {
  const tenant = String(ctx.req.headers['x-service-tenant'] ?? '');
  const key = `${ctx.clientId}|${tenant}`;
  const now = Date.now();
  const { rateLimit, windowMs } = state.options;
  let w = state.windows.get(key);
  if (!w || now - w.start >= windowMs) {
    w = { start: now, count: 0 };
    state.windows.set(key, w);
  }
  w.count++;
  const remaining = Math.max(0, rateLimit - w.count);
  const resetS = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
  const windowS = Math.max(1, Math.round(windowMs / 1000));
  ctx.headers['x-ratelimit-limit'] = String(rateLimit);
  ctx.headers['x-ratelimit-remaining'] = String(remaining);
  ctx.headers['ratelimit-policy'] = `"hickory";q=${rateLimit};w=${windowS}`;
  ctx.headers.ratelimit = `"hickory";r=${remaining};t=${resetS}`;
  if (w.count > rateLimit) {
    ctx.headers['retry-after'] = String(resetS);
    throw new ApiError('rate_limited', 'Too many calls in this window.', {
      hint: `Retry after ${resetS} s, with growing intervals.`,
    });
  }
}

/** The tenant header: missing 400, unknown or not released for this access 403. */
export function checkTenant(state: State, ctx: Ctx): void {
  const tenant = ctx.req.headers['x-service-tenant'];
  if (typeof tenant !== 'string' || tenant.trim() === '') {
    throw new ApiError('invalid_request', 'The header x-service-tenant is required.', {
      hint: 'Send the tenant identifier in x-service-tenant.',
    });
  }
  if (!state.tenants[tenant]?.released) {
    throw new ApiError('forbidden', 'This access is not released for the tenant.', {
      hint: 'Check the permissions of the access.',
    });
  }
  ctx.tenant = tenant;
}
