// GET /stream: public. Without a token it serves the public partition (ids and states, no tenant data); with
// a bearer token and x-service-tenant it serves that tenant's partition, after the same checks as any
// authenticated call. `Last-Event-ID` (what a reconnecting EventSource sends) wins over `?cursor`.
import type { Handler } from './app.ts';
import { ApiError } from './http-kit.ts';
import { parseLastRead } from './kafka-stream.ts';

const header = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export const serveStream: Handler = (ctx, app) => {
  const fromHeader = parseLastRead(header(ctx.req.headers['last-event-id']), 'Last-Event-ID');
  const fromQuery = parseLastRead(ctx.query.get('cursor') ?? undefined, 'cursor');
  let tenant: string | undefined;
  const auth = header(ctx.req.headers.authorization);
  if (auth !== undefined) {
    const token = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
    const found = token === undefined ? { active: false } : app.oauth.introspect(token);
    if (!found.active || !('clientId' in found))
      throw new ApiError('unauthorized', 'The bearer token is missing, malformed, expired or revoked.');
    tenant = header(ctx.req.headers['x-service-tenant'])?.trim();
    const client = app.store.clients.get(found.clientId ?? '');
    if (tenant === undefined || tenant === '' || !client?.tenants.includes(tenant)) {
      throw new ApiError('forbidden', 'This access is not released for the tenant named in x-service-tenant.');
    }
  }
  app.stream.serve(ctx.res, { ...ctx.headers, 'x-unique-id': ctx.requestId }, tenant, fromHeader ?? fromQuery);
};
