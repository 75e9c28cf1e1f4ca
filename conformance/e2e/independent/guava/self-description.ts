// The interface's self-description and its OpenAPI files (the current document, and one JSON and one
// YAML download per version), built from the route table at request time so they never drift from it.
import type { Ctx } from './http.ts';
import { openapiDocument, toYaml } from './openapi.ts';
import { PREFIX, type Rec, type Store, VERSION, VERSIONS } from './state.ts';

export interface RouteDef {
  method: string;
  path: string;
  opId: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  body?: string;
  data?: string;
  stream?: boolean;
  query?: { name: string; schema: Rec }[];
  run: (store: Store, ctx: Ctx) => Rec | undefined;
}

/** The full table, handed in by routes.ts (which lists these routes first). */
let table: () => RouteDef[] = () => [];
export function useTable(all: () => RouteDef[]): void {
  table = all;
}

function origin(ctx: Ctx): string {
  return `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
}

function spec(version: string, yaml: boolean) {
  return (_s: Store, ctx: Ctx) => {
    const doc = openapiDocument(table(), version, origin(ctx));
    const text = yaml ? `${toYaml(doc).trimStart()}\n` : JSON.stringify(doc, null, 2);
    const type = yaml ? 'application/yaml' : 'application/json';
    ctx.res.writeHead(200, {
      'content-type': `${type};charset=UTF-8`,
      'content-disposition': `attachment; filename="guava-${version}.${yaml ? 'yaml' : 'json'}"`,
    });
    ctx.res.end(text);
    return undefined;
  };
}

function describe(_s: Store, ctx: Ctx): Rec {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: `${origin(ctx)}/oauth/access_token`,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      validity: 'PT24H',
      scope: 'client, tenant and key',
    },
    webhooks: {
      events: ['connection.created', 'connection.live', 'order.created', 'order.paid'],
      signatureHeader: 'X-Guava-Signature',
    },
    routes: table().map((x) => ({ method: x.method, path: x.path, purpose: x.purpose, auth: x.auth })),
  };
}

const P = PREFIX;
export const META_ROUTES: RouteDef[] = [
  {
    method: 'GET',
    path: P,
    opId: 'describe',
    data: 'Description',
    purpose: 'self-description',
    auth: false,
    run: describe,
  },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    opId: 'openapi',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    run: spec(VERSION, false),
  },
  ...VERSIONS.flatMap((v): RouteDef[] => [
    {
      method: 'GET',
      path: `${P}/openapi/${v}.json`,
      opId: `openapiJson${v.replaceAll('-', '')}`,
      purpose: `OpenAPI document of ${v} (JSON file)`,
      auth: false,
      run: spec(v, false),
    },
    {
      method: 'GET',
      path: `${P}/openapi/${v}.yaml`,
      opId: `openapiYaml${v.replaceAll('-', '')}`,
      purpose: `OpenAPI document of ${v} (YAML file)`,
      auth: false,
      run: spec(v, true),
    },
  ]),
];
