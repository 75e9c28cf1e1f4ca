// A net/http ServeMux with Go 1.22 patterns ("GET /api/public/v1/webhooks/{id}/deliveries") and the
// middleware chain a Go team writes around it: request id, Service-Version, bearer introspection, the
// token bucket, the tenant check, the Idempotency-Key and the envelope. Wrong method: Allow header.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLimiter, introspect } from './auth.ts';
import { createIdempotency, KEY_PATTERN } from './idempotency.ts';
import type { State } from './state.ts';
import {
  ApiError,
  errorBody,
  invalid,
  meta,
  notFound,
  readBody,
  requestId,
  VERSION,
  VERSIONS,
  writeJson,
} from './util.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
  rid: string;
  version: string;
  origin: string;
  tenant: string;
  clientId: string;
  tokenExpiresAt: number;
  key: string | undefined;
  body: unknown;
}

export interface Route {
  method: string;
  pattern: string;
  purpose: string;
  auth: boolean;
  /** "required": yes + key; "optional": honoured when sent; "none": not read. */
  key: 'required' | 'optional' | 'none';
  /** Takes a JSON body. */
  body?: boolean;
  /** Part of the interface's route table (listed in the self-description). */
  listed?: boolean;
  /** Writes its own answer (the event stream); otherwise returns data for the envelope. */
  handle: (ctx: Ctx) => Promise<Record<string, unknown> | undefined>;
}

function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const ps = pattern.split('/');
  const xs = path.split('/');
  if (ps.length !== xs.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i] ?? '';
    const x = xs[i] ?? '';
    if (p.startsWith('{') && p.endsWith('}')) {
      if (x === '') return undefined;
      params[p.slice(1, -1)] = decodeURIComponent(x);
    } else if (p !== x) return undefined;
  }
  return params;
}

export function createMux(state: State, routes: Route[]) {
  const limiter = createLimiter(state);
  const idem = createIdempotency(state.options.keyTtlMs);
  return async function serve(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
    const rid = requestId();
    res.setHeader('x-request-id', rid);
    const sent = req.headers['service-version'];
    let version = VERSION;
    let rate: Record<string, string> = {};
    let key: string | undefined;
    try {
      const url = new URL(req.url ?? '/', 'http://olive.invalid');
      const path = url.pathname;
      if (typeof sent === 'string' && sent !== '') {
        if (!VERSIONS.includes(sent.trim()))
          throw invalid(`Service-Version: unknown version; published: ${VERSIONS.join(', ')}`);
        version = sent.trim();
      }
      const candidates = routes.map((r) => ({ r, params: matchPattern(r.pattern, path) })).filter((c) => c.params);
      if (candidates.length === 0) {
        // ServeMux redirects a path to its canonical form; we do it for a trailing slash on reads.
        const bare = path.replace(/\/+$/, '');
        if (
          bare !== path &&
          bare !== '' &&
          routes.some((r) => matchPattern(r.pattern, bare)) &&
          (req.method === 'GET' || req.method === 'HEAD')
        ) {
          res.writeHead(301, { location: `${bare}${url.search}`, 'content-type': 'text/html; charset=utf-8' });
          res.end(`<a href="${bare}">Moved Permanently</a>.\n`);
          return;
        }
        throw notFound(`no route for ${path}`);
      }
      const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
      const hit = candidates.find((c) => c.r.method === method);
      if (!hit?.params) {
        const allow = [
          ...new Set(candidates.flatMap((c) => (c.r.method === 'GET' ? ['GET', 'HEAD'] : [c.r.method]))),
        ].join(', ');
        const status = state.options.http405 ? 405 : 400;
        const e = new ApiError(
          status,
          'invalid_request',
          'method not allowed',
          `${req.method} is not served here; allowed: ${allow}`,
          { allow },
        );
        throw e;
      }
      const route = hit.r;
      const ctx: Ctx = {
        req,
        res,
        params: hit.params,
        query: url.searchParams,
        rid,
        version,
        origin,
        tenant: '',
        clientId: '',
        tokenExpiresAt: 0,
        key: undefined,
        body: undefined,
      };
      if (route.auth) {
        const who = introspect(state, req);
        ctx.clientId = who.clientId;
        ctx.tokenExpiresAt = who.expiresAt;
        const tenantHeader = req.headers['x-service-tenant'];
        const tenant = typeof tenantHeader === 'string' ? tenantHeader.trim() : '';
        rate = limiter.take(`${who.clientId}\u0000${tenant}`);
        if (tenant === '' && state.options.missingTenant401)
          throw new ApiError(
            401,
            'unauthorized',
            'the call was not signed in for a tenant',
            'header x-service-tenant missing',
          );
        if (tenant === '')
          throw new ApiError(
            403,
            'forbidden',
            'the access may not perform the action',
            'header x-service-tenant missing',
          );
        if (state.options.unknownTenant404 && !state.known.has(tenant))
          throw notFound('x-service-tenant: no such tenant');
        if (!state.released.has(tenant))
          throw new ApiError(
            403,
            'forbidden',
            'the access may not perform the action',
            'tenant not released for this access',
          );
        ctx.tenant = tenant;
        if (state.options.versionRequired && typeof sent !== 'string')
          throw invalid('Service-Version: header required');
      }
      if (route.key !== 'none') {
        const raw = req.headers['idempotency-key'];
        const value = typeof raw === 'string' ? raw : undefined;
        if (value !== undefined && !KEY_PATTERN.test(value))
          throw invalid('Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$');
        key = value;
        ctx.key = value;
        if (value === undefined && route.key === 'required')
          throw new ApiError(
            428,
            'idempotency_required',
            'an idempotency key is mandatory for this call',
            'send the header Idempotency-Key',
          );
      }
      if (route.body) {
        const text = await readBody(req);
        try {
          ctx.body = JSON.parse(text);
        } catch {
          throw invalid('body: not a JSON document');
        }
      }
      let data: Record<string, unknown> | undefined;
      let replayed = false;
      if (ctx.key) {
        const scope = state.options.keyScopeClient ? ctx.clientId : `${ctx.clientId}\u0000${ctx.tenant}`;
        const out = await idem.run(
          scope,
          ctx.key,
          route.method,
          `${ctx.tenant} ${path}`,
          ctx.body,
          async () => (await route.handle(ctx)) ?? {},
        );
        data = out.data;
        replayed = out.replayed;
      } else data = await route.handle(ctx);
      if (data === undefined) return; // the stream answered itself
      const m = meta(
        rid,
        version,
        key ? { idempotencyKey: key, ...(replayed ? { replayed: true } : {}) } : {},
        state.options.utcOffsetMinutes,
      );
      if (state.options.goZeroValues && m.replayed === undefined) m.replayed = false;
      writeJson(res, 200, { ok: true, data, meta: m }, rate, state.options.goHtmlEscape);
    } catch (err) {
      const e =
        err instanceof ApiError
          ? err
          : new ApiError(500, 'internal', 'fault on the service side', 'quote the request id to support');
      if (!(err instanceof ApiError)) process.stderr.write(`olive: ${rid}: ${String(err)}\n`);
      if (res.headersSent) {
        res.end();
        return;
      }
      const m = meta(rid, version, key ? { idempotencyKey: key } : {}, state.options.utcOffsetMinutes);
      if (state.options.goZeroValues) m.replayed = false;
      const body = errorBody(e, m, state.options.goZeroValues) as Record<string, unknown>;
      const problem = state.options.problemJson
        ? { type: `https://olive.example/errors/${e.code}`, title: e.message, status: e.status }
        : {};
      const type: Record<string, string> = state.options.problemJson
        ? { 'content-type': 'application/problem+json' }
        : {};
      writeJson(res, e.status, { ...problem, ...body }, { ...rate, ...e.headers, ...type }, state.options.goHtmlEscape);
    }
  };
}
