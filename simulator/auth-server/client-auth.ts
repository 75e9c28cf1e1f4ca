import type { ClientRecord, ClientService } from '../services/client-service.ts';
import type { Clock } from '../lib/clock.ts';
import type { PlainRequest } from '../core/types.ts';
import { OAuthError } from './oauth-error.ts';
import type { OAuthParams } from './params.ts';

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface AuthenticatedClient {
  client: ClientRecord;
  method: ClientAuthMethod;
}

const FAILED = 'Client authentication failed: unknown client or wrong secret.';

/** RFC 6749 2.3.1: id and secret are form-encoded before they are joined and base64-encoded. */
function parseBasic(header: string): { id: string; secret: string } {
  const m = /^basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  const decoded = m?.[1] ? Buffer.from(m[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 1)
    throw new OAuthError(
      'invalid_client',
      'The Basic credentials are malformed: expected base64(client_id:client_secret).',
    );
  const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  try {
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are malformed: id and secret must be form-encoded.');
  }
}

/**
 * Authenticates the client of a token or revocation request: client_secret_basic, client_secret_post,
 * or `none` (client_id only) for public clients. Refuses an access past its expiry date, naming the
 * person who can renew it. Secrets are never repeated in an answer.
 * @example const { client } = await authenticateClient(req, params, { clients, clock });
 */
export async function authenticateClient(
  req: PlainRequest,
  params: OAuthParams,
  deps: { clients: Pick<ClientService, 'get' | 'verifySecret'>; clock: Clock },
): Promise<AuthenticatedClient> {
  const header = req.headers.authorization;
  const basic = header !== undefined && /^basic\s/i.test(header) ? parseBasic(header) : undefined;
  if (header !== undefined && !basic)
    throw new OAuthError(
      'invalid_client',
      'Only HTTP Basic client authentication is accepted in the Authorization header.',
    );
  if (basic && params.client_secret !== undefined) {
    throw new OAuthError(
      'invalid_request',
      'Use one client authentication method: Basic header or client_secret in the body, not both.',
    );
  }
  if (basic && params.client_id !== undefined && params.client_id !== basic.id) {
    throw new OAuthError('invalid_request', 'client_id in the body differs from the client of the Basic header.');
  }
  const id = basic?.id ?? params.client_id;
  if (id === undefined) {
    throw new OAuthError(
      'invalid_client',
      'No client authentication: send HTTP Basic credentials, client_id + client_secret, or client_id alone for a public client.',
    );
  }
  const secret = basic?.secret ?? params.client_secret;
  const client = await deps.clients.get(id);
  if (!client) throw new OAuthError('invalid_client', FAILED);
  let method: ClientAuthMethod;
  if (client.type === 'public') {
    if (secret !== undefined)
      throw new OAuthError(
        'invalid_client',
        'This is a public client: it has no secret; send client_id alone and use PKCE.',
      );
    method = 'none';
  } else {
    if (secret === undefined) {
      throw new OAuthError(
        'invalid_client',
        'This client is confidential: authenticate with client_secret_basic or client_secret_post.',
      );
    }
    if (!(await deps.clients.verifySecret(id, secret))) throw new OAuthError('invalid_client', FAILED);
    method = basic ? 'client_secret_basic' : 'client_secret_post';
  }
  const expired = expiredAccessMessage(client, deps.clock);
  if (expired) throw new OAuthError('invalid_client', expired);
  return { client, method };
}

/** Every access has an expiry date; past it the client is refused with the name of its owner. */
export function expiredAccessMessage(client: ClientRecord, clock: Clock): string | undefined {
  if (Date.parse(client.expiresAt) > clock.now()) return undefined;
  return `The access ${client.id} expired at ${client.expiresAt}; ask its responsible person (${client.owner}) to renew it.`;
}
