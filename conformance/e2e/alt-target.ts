import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { serve } from '../../simulator/app/serve.ts';
import { BASE_PATH, CURRENT_VERSION, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { CoreHandler } from '../../simulator/core/types.ts';
import { answerAfter, answerBefore, behaviourState, type Call, extraHeaders } from './alt-behaviour.ts';
import { ALT_A, type AltChoices } from './alt-choices.ts';
import * as extra from './alt-extras.ts';
import * as further from './alt-further.ts';
import {
  AUDIT,
  DESCRIBED,
  isOtherForm,
  PUBLIC,
  SELF_DESCRIPTIONS,
  SIM_DELIVERIES,
  SIM_PATHS,
  SIM_REDELIVER,
  SIM_ROUTES,
  templateRegex,
} from './alt-paths.ts';
import { createRelay, envelope, forwardable, parsed } from './alt-relay.ts';
import {
  fromStart,
  notAllowed,
  reshapeAudit,
  reshapeKeyResult,
  reshapeOpenApi,
  reshapeSelfDescription,
} from './alt-reshape.ts';
import { streamWriter } from './alt-stream-text.ts';
import { translator } from './alt-translate.ts';
import { bodyless, callCore, pipeStream, writeLines } from './alt-upstream.ts';
import { frameStream, inwardStreamId, sendJson, streamPreamble, writeJson, writeJsonValue } from './alt-wire.ts';
import { serveYamlOf } from './alt-yaml.ts';

export { ALT_A as ALT_CHOICES } from './alt-choices.ts';
/**
 * A deployment that made other legal choices where the interface is silent, for the kit's self-test: the
 * simulator's core behind a loopback HTTP proxy (called in process, alt-upstream.ts) that applies one AltChoices
 * (alt-choices.ts): other ids, state and event names, signature and delivery-id headers, delivery-log paths,
 * audit-log shape, order and paging, OpenAPI servers, self-description, token endpoint, whether Service-Version
 * is mandatory, what is refused before authentication. The kit must pass each with and without a profile.
 */

/**
 * @example const target = await altChoicesTarget(ALT_B); await runConformance({ baseUrl: target.baseUrl, token: target.token, tenant: target.tenant });
 */
export async function altChoicesTarget(c: AltChoices = ALT_A) {
  // A window wide enough for the suites' several full kit runs a minute against one target (the 600/60 default
  // made the third run wait out a 429 for ~58 s, which is the kit behaving well, not what these tests judge).
  const rateLimit = { limit: 5000, windowSeconds: 60 };
  const sim = await serve({ port: 0, altPort: 0, webhooks: { signatureHeader: c.signatureHeader }, rateLimit });
  let origin = '';
  let altOrigin = '';
  const prefix = c.basePrefix ?? '';
  const state = behaviourState();
  const [publicPool, throttled, replayed] = [extra.publicRatePool(), extra.tokenThrottle(), further.replayState()];
  const rateCount = further.perBaseUrl(); // each base URL its own rate-limit count, where so chosen
  const altPaths: [RegExp, string][] = [
    [templateRegex(c.deliveryLogPath), SIM_DELIVERIES],
    [templateRegex(c.redeliverPath), SIM_REDELIVER],
  ];
  /** A request path in the simulator's terms: this deployment's delivery-log paths mapped, the simulator's own hidden. */
  const upstreamPath = (path: string): string | undefined => {
    for (const [alt, simPath] of altPaths) {
      const m = alt.exec(path);
      if (m) return simPath.replace('{webhookId}', m[1] ?? '').replace('{deliveryId}', m[2] ?? '');
    }
    return SIM_PATHS.some((r) => r.test(path)) ? undefined : path;
  };
  const publishPaths = (text: string) =>
    text.replaceAll(SIM_REDELIVER, c.redeliverPath).replaceAll(SIM_DELIVERIES, c.deliveryLogPath);
  const { outward, inward, renameStates } = translator(c, sim, () => [origin, altOrigin]);

  const { receivers, relay } = createRelay(c, (text) => outward(text));
  const reshape = (
    path: string,
    search: URLSearchParams,
    body: Record<string, unknown>,
    answer: { status: number; requestBody: unknown },
  ): Record<string, unknown> => {
    if (path === `${BASE_PATH}/openapi.json`) return reshapeOpenApi(body, c, [origin, altOrigin]);
    if (path === `${BASE_PATH}/idempotency-keys`) reshapeKeyResult(body, c);
    if (path === BASE_PATH) return reshapeSelfDescription(body, c, SIM_ROUTES);
    if (path === `${BASE_PATH}/capabilities` && c.unknownConnector === 'not-allowed') return notAllowed(body, answer);
    const data = body.data as Record<string, unknown> | undefined;
    if (path.endsWith('/webhooks') && typeof data?.id === 'string' && typeof data.signingSecret === 'string') {
      const index = /\/relay\/(\d+)$/.exec(String(data.url))?.[1];
      const r = index === undefined ? undefined : receivers[Number(index)];
      if (r) {
        r.secret = data.signingSecret;
        data.url = r.url;
      }
      if (c.secretField) {
        data[c.secretField] = data.signingSecret;
        delete data.signingSecret;
      }
      if (c.extras) extra.placeSecret(body, c.extras);
      if (c.further) further.nestRegistration(body, c.further);
    }
    if (altPaths[0]?.[0].test(path)) further.nestDeliveryLog(extra.reshapeDeliveryLog(body, c.extras ?? {}), c.further);
    if (path === AUDIT && data) body.data = reshapeAudit(data, c, search);
    return body;
  };
  /** Whether `reshape` has anything to do with an answer at `path` (else the text passes unparsed). */
  const reshapes = (path: string) =>
    DESCRIBED.has(path) ||
    path === AUDIT ||
    path.endsWith('/webhooks') ||
    ((c.extras ?? c.further) !== undefined && altPaths[0]?.[0].test(path)) ||
    (path === `${BASE_PATH}/idempotency-keys` && c.keyValiditySeconds !== undefined) ||
    (path === `${BASE_PATH}/capabilities` && c.unknownConnector === 'not-allowed');
  const handler = (core: CoreHandler, simOrigin: string) => async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://alt');
    // A gateway path before the interface's: stripped; the interface's paths without it do not exist here.
    if (prefix && url.pathname.startsWith(BASE_PATH))
      return envelope(res, 404, 'not_found', `This deployment serves the interface under ${prefix}.`);
    if (prefix && url.pathname.startsWith(`${prefix}/`)) url.pathname = url.pathname.slice(prefix.length);
    if (prefix && url.pathname === `/.well-known/oauth-authorization-server${prefix}`)
      url.pathname = '/.well-known/oauth-authorization-server';
    if (isOtherForm(url.pathname)) return envelope(res, 404, 'not_found', 'No such path in this deployment.');
    if (req.method === 'GET' && url.pathname === `${BASE_PATH}/openapi.yaml`) {
      const self = simOrigin === sim.baseUrl ? origin : altOrigin;
      return serveYamlOf(`${self}${prefix}${BASE_PATH}/openapi.json${url.search}`, req, res);
    }
    if (c.wire?.stream && url.pathname === `${BASE_PATH}/stream`) {
      const cursor = url.searchParams.get('cursor');
      if (cursor !== null) url.searchParams.set('cursor', inwardStreamId(cursor, c.wire));
      const last = req.headers['last-event-id'];
      if (typeof last === 'string') req.headers['last-event-id'] = inwardStreamId(last, c.wire);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = forwardable(req.headers);
    let raw = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
    if (url.pathname.startsWith('/relay/'))
      return relay(Number(url.pathname.split('/')[2]), Buffer.concat(chunks), req.headers['ncs-delivery'], res);
    let path: string | undefined = url.pathname;
    if (c.tokenPath) {
      if (path === '/oauth/token') return envelope(res, 404, 'not_found', 'No such path in this deployment.');
      if (path === c.tokenPath) path = '/oauth/token';
    }
    if (c.extras?.tokenQuirks && path === '/oauth/token' && throttled()) return extra.throttledAnswer(res);
    if (path === '/oauth/token' && further.refusesBasic(c.further, req, res)) return;
    const api = url.pathname.startsWith(BASE_PATH);
    if (api && c.serviceVersion === 'required' && headers['service-version'] === undefined)
      return envelope(res, 400, 'invalid_request', 'Header Service-Version is required by this deployment.');
    const asked = headers['service-version'];
    if (
      api &&
      c.unknownServiceVersion === 'refuse' &&
      asked !== undefined &&
      !SUPPORTED_VERSIONS.includes(asked as never)
    )
      return envelope(res, 400, 'invalid_request', `Service-Version ${asked.slice(0, 20)} is not offered here.`);
    if (api && c.infoRoute === false && url.pathname === `${BASE_PATH}/info`)
      return envelope(res, 404, 'not_found', 'No such path in this deployment.');
    if (api && c.preAuthBodyCheck && raw !== undefined && req.method === 'POST') {
      try {
        JSON.parse(raw);
      } catch {
        // Refused before authentication: not counted, so no rate-limit headers.
        return envelope(res, 400, 'invalid_request', 'The body is not JSON.');
      }
    }
    if (
      api &&
      c.missingTenant === 401 &&
      headers.authorization &&
      !headers['x-service-tenant'] &&
      !PUBLIC.has(url.pathname)
    )
      return envelope(res, 401, 'unauthorized', 'No tenant named: this access is signed in for none.');
    path = api ? upstreamPath(path) : path;
    if (path === undefined) return envelope(res, 404, 'not_found', 'No such path in this deployment.');
    if (c.deliveryLogForEarlier && path !== url.pathname && headers['service-version'] === SUPPORTED_VERSIONS[1])
      headers['service-version'] = CURRENT_VERSION;
    const search = new URLSearchParams(url.search);
    if (url.pathname === AUDIT && c.audit.paged) {
      // The proxy pages itself over the simulator's newest 500 entries.
      search.set('limit', '500');
      search.delete('after');
      search.delete('cursor');
    }
    if (c.streamFromStart && url.pathname === `${BASE_PATH}/stream`) fromStart(search, headers);
    if (raw && req.method === 'POST' && url.pathname === `${BASE_PATH}/webhooks`) {
      // Names it renames are unknown here (made ones the simulator refuses: checks answer in their usual order).
      const json = JSON.parse(raw) as { events?: unknown[] };
      const renamed = new Set(Object.values(c.events).filter((n) => !(n in c.events)));
      if (Array.isArray(json.events))
        json.events = json.events.map((e) => (typeof e === 'string' && !renamed.has(e) ? e : `unknown:${String(e)}`));
      raw = JSON.stringify(json);
    }
    let sent = raw === undefined ? undefined : inward(raw);
    if (sent && req.method === 'POST' && url.pathname === `${BASE_PATH}/webhooks`) {
      const json = JSON.parse(sent) as { url?: string };
      if (typeof json.url === 'string') {
        // One relay address per receiver address, so a repeated registration is the same request.
        let index = receivers.findIndex((r) => r.url === json.url);
        if (index < 0) index = receivers.push({ url: json.url }) - 1;
        json.url = `${origin}/relay/${index}`;
        sent = JSON.stringify(json);
      }
    }
    const call: Call = {
      method: req.method ?? 'GET',
      path: url.pathname,
      search: url.searchParams,
      headers,
      body: parsed(raw),
    };
    const early = api ? answerBefore(c.behaviour, state, call) : undefined;
    if (early) {
      const requestId = String((early.json.meta as { requestId?: unknown } | undefined)?.requestId ?? '');
      const head = { 'content-type': 'application/json', 'x-request-id': requestId };
      return sendJson(req, res, early.status, head, writeJson(JSON.stringify(early.json), c.wire), c.wire);
    }
    const upstream = await callCore(core, simOrigin, {
      method: req.method ?? 'GET',
      path: inward(path),
      search,
      headers,
      ...(sent !== undefined ? { body: sent } : {}),
    });
    // A fault of the simulator's that drops the connection: so does this deployment.
    if (upstream.abort) return void res.destroy();
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(upstream.headers))
      if (k !== 'content-length' && k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'connection')
        out[k] = v;
    if (api) Object.assign(out, extraHeaders(c.behaviour, call, upstream.status));
    if (api && c.extras?.publicRateLimit)
      extra.ietfRateLimit(Object.assign(out, PUBLIC.has(url.pathname) ? publicPool() : {}));
    if (api && c.further?.weightedRateLimit) rateCount(simOrigin)(out, headers, call.method, upstream.status);
    const publish = SELF_DESCRIPTIONS.has(url.pathname) ? publishPaths : (t: string) => t;
    const empty = bodyless(req.method ?? 'GET', upstream.status);
    if (empty || upstream.stream || !(upstream.headers['content-type'] ?? '').includes('json')) {
      res.writeHead(upstream.status, out);
      // Event streams name connections too: whole lines rewritten, a partial one kept for the next chunk.
      let preamble = upstream.stream ? streamPreamble(c.wire) : '';
      const messages = upstream.stream ? streamWriter(c.further, res) : (t: string) => t;
      const rewrite = (lines: string) => {
        const text = preamble + frameStream(publish(outward(lines)), c.wire);
        preamble = '';
        return messages(text);
      };
      if (upstream.stream && !empty) return pipeStream(upstream.stream, res, rewrite);
      return writeLines(res, empty ? '' : (upstream.body ?? ''), rewrite);
    }
    let body = publish(outward(upstream.body ?? ''));
    if (url.pathname === '/.well-known/oauth-authorization-server' && c.tokenPath)
      body = body
        .replaceAll(`${origin}${prefix}/oauth/token`, `${origin}${prefix}${c.tokenPath}`)
        .replaceAll(`${origin}/oauth/token`, `${origin}${c.tokenPath}`);
    if (url.pathname === '/.well-known/oauth-authorization-server') body = further.metadataText(c.further, body);
    if (c.extras?.tokenQuirks && path === '/oauth/token') body = extra.tokenAnswer(body);
    const answer = { status: upstream.status, requestBody: call.body };
    if (!DESCRIBED.has(url.pathname)) body = renameStates(body);
    // Parsed once, only where something reads or rewrites the value: most answers pass as text.
    let value: Record<string, unknown> | undefined;
    if (reshapes(url.pathname) || (api && (c.behaviour || c.wire || c.further)))
      try {
        value = reshape(url.pathname, new URLSearchParams(url.search), JSON.parse(body), answer);
      } catch {
        // Not JSON after all: passed on as it came.
      }
    if (value && api && c.behaviour) {
      const a = answerAfter(c.behaviour, state, call, { status: answer.status, json: value });
      answer.status = a.status;
      const requestId = (a.json.meta as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' && out['x-request-id']) out['x-request-id'] = requestId;
      value = a.json;
    }
    if (value && api && c.extras) extra.echoKey(value, c.extras);
    if (value && api && c.further) replayed(c.further, call.method, headers, url.pathname, answer.status, value);
    if (value) body = api && c.wire ? writeJsonValue(value, c.wire) : JSON.stringify(value);
    sendJson(req, res, answer.status, out, body, c.wire);
  };
  const server: Server = createServer(handler(sim.sandbox.core, sim.baseUrl));
  const altServer: Server = createServer(handler(sim.sandbox.altCore, sim.altBaseUrl!));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => altServer.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  altOrigin = `http://127.0.0.1:${(altServer.address() as { port: number }).port}`;
  return {
    baseUrl: origin + prefix,
    altBaseUrl: altOrigin + prefix,
    choices: c,
    sandbox: sim.sandbox,
    token: sim.token,
    tenant: sim.tenant,
    async close() {
      for (const s of [server, altServer]) {
        s.closeAllConnections();
        await new Promise<void>((r) => s.close(() => r()));
      }
      await sim.close();
    },
  };
}
