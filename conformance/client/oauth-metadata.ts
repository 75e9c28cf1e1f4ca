import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { KitClient } from './http-client.ts';

/** Where the token endpoint came from: said in the report, so a guess is never mistaken for a fact. */
export interface DiscoveredTokenEndpoint {
  tokenUrl: string;
  /** e.g. "RFC 8414 metadata at https://auth.example/.well-known/oauth-authorization-server". */
  source: string;
  /** True when nothing named it and the kit tried the simulator's path. */
  assumed: boolean;
  /** The metadata's `token_endpoint_auth_methods_supported`, when it lists them (RFC 8414 §2). */
  authMethods?: string[];
}

const METADATA = '/.well-known/oauth-authorization-server';
/** The simulator's token path: the last resort when the deployment names none. */
export const FALLBACK_TOKEN_PATH = '/oauth/token';

const absolute = (value: unknown, base: string): string | undefined => {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const url = new URL(value, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The metadata addresses RFC 8414 §3 defines for an issuer: the well-known path inserted before the
 * issuer's path (when it has one), then the origin's; plus one the self-description names.
 */
function metadataCandidates(baseUrl: string, named: string | undefined): string[] {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  const out = [
    ...(named ? [named] : []),
    ...(path ? [`${url.origin}${METADATA}${path}`] : []),
    `${url.origin}${METADATA}`,
  ];
  return [...new Set(out)];
}

const bare = (url: string) => url.replace(/\/+$/, '');

/**
 * Whether metadata fetched from `metadataUrl` may be used (RFC 8414 §3.3): its `issuer` must be the issuer the
 * well-known address was built from, else it MUST NOT be used (a deployment could name any token endpoint and
 * collect the client's credentials there). For an address not of the well-known form (one the self-description
 * names) the issuer must be on the address's origin. Metadata without an issuer is taken as before; a token
 * endpoint on another origin inside matching metadata is legitimate.
 * @example issuerMatches('https://a.example/.well-known/oauth-authorization-server', 'https://a.example') // true
 */
export function issuerMatches(metadataUrl: string, issuer: unknown): boolean {
  if (issuer === undefined) return true;
  if (typeof issuer !== 'string') return false;
  const url = new URL(metadataUrl);
  if (url.pathname.startsWith(METADATA))
    return bare(issuer) === bare(`${url.origin}${url.pathname.slice(METADATA.length)}`);
  try {
    return new URL(issuer).origin === url.origin;
  } catch {
    return false;
  }
}

/**
 * Finds the token endpoint of a deployment that does not declare it: RFC 8414 authorization server
 * metadata (the address the self-description's authentication object names, then the well-known
 * ones), then a tokenEndpoint the self-description names; else the simulator's path, marked assumed.
 * @example const { tokenUrl } = await discoverTokenEndpoint(client, 'https://staging.example', selfDescription);
 */
export async function discoverTokenEndpoint(
  client: KitClient,
  baseUrl: string,
  selfDescription?: unknown,
): Promise<DiscoveredTokenEndpoint> {
  const auth = (selfDescription as { data?: { authentication?: Record<string, unknown> } } | undefined)?.data
    ?.authentication;
  const origin = `${new URL(baseUrl).origin}/`;
  const ignored: string[] = [];
  for (const url of metadataCandidates(baseUrl, absolute(auth?.metadata, origin))) {
    const ex = await client.send({ method: 'GET', url, headers: { accept: 'application/json' }, retry: false });
    const json = ex.json as
      | { issuer?: unknown; token_endpoint?: unknown; token_endpoint_auth_methods_supported?: unknown }
      | undefined;
    if (ex.status === 200 && json && !issuerMatches(url, json.issuer)) {
      ignored.push(
        `metadata at ${url} ignored: its issuer ${String(json.issuer).slice(0, 200)} is not the one that address was built from (RFC 8414 §3.3)`,
      );
      continue;
    }
    const tokenUrl = absolute(json?.token_endpoint, url);
    const methods = json?.token_endpoint_auth_methods_supported;
    const authMethods = Array.isArray(methods) ? methods.filter((m): m is string => typeof m === 'string') : undefined;
    if (ex.status === 200 && tokenUrl)
      return {
        tokenUrl,
        source: `RFC 8414 metadata at ${url}`,
        assumed: false,
        ...(authMethods ? { authMethods } : {}),
      };
  }
  // Named in the self-description's authentication object (`tokenEndpoint`, `token_url`, `tokenUrl`).
  const namedKey = Object.keys(auth ?? {}).find((k) => /^token_?(?:endpoint|url)$/i.test(k));
  const named = namedKey === undefined ? undefined : absolute(auth?.[namedKey], origin);
  const why = ignored.map((i) => `${i}; `).join('');
  if (named)
    return {
      tokenUrl: named,
      source: `${why}the self-description (data.authentication.${namedKey})`,
      assumed: false,
    };
  const documented = await openApiTokenUrl(client, baseUrl);
  if (documented)
    return { tokenUrl: documented.url, source: `${why}the OpenAPI document (${documented.where})`, assumed: false };
  return {
    tokenUrl: new URL(FALLBACK_TOKEN_PATH, origin).toString(),
    source: `${why}no metadata, no token endpoint in the self-description or in the OpenAPI document's OAuth2 security schemes: the simulator's ${FALLBACK_TOKEN_PATH} tried (declare tokenEndpoint or --token-url)`,
    assumed: true,
  };
}

/**
 * The token URL of the client credentials flow of an OAuth2 security scheme of the deployment's OpenAPI
 * document (`components.securitySchemes.*.flows.clientCredentials.tokenUrl`), resolved against the base URL.
 * @example await openApiTokenUrl(client, 'https://staging.example') // { url: 'https://staging.example/auth/token', where: '…' }
 */
async function openApiTokenUrl(
  client: KitClient,
  baseUrl: string,
): Promise<{ url: string; where: string } | undefined> {
  const docUrl = `${baseUrl.replace(/\/+$/, '')}${BASE_PATH}/openapi.json`;
  const ex = await client.send({ method: 'GET', url: docUrl, headers: { accept: 'application/json' }, retry: false });
  const schemes = (ex.json as { components?: { securitySchemes?: unknown } } | undefined)?.components?.securitySchemes;
  if (ex.status !== 200 || !schemes || typeof schemes !== 'object') return undefined;
  for (const [name, scheme] of Object.entries(schemes as Record<string, unknown>)) {
    const flow = (scheme as { type?: unknown; flows?: { clientCredentials?: { tokenUrl?: unknown } } } | null)?.flows
      ?.clientCredentials;
    const url = (scheme as { type?: unknown } | null)?.type === 'oauth2' ? absolute(flow?.tokenUrl, docUrl) : undefined;
    if (url) return { url, where: `securitySchemes.${name}.flows.clientCredentials.tokenUrl` };
  }
  return undefined;
}
