import { SCOPES, type Scope } from '../contract/scopes.ts';
import type { PlainResponse } from '../core/types.ts';
import type { ClientRecord } from '../services/client-service.ts';
import { NO_STORE } from './oauth-error.ts';
import type { OAuthParams } from './params.ts';
import type { Person } from './sign-in.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The optional consent page (`prompt=consent`): names the application, the account and the requested
 * rights, as the interface's consent does, and posts the decision back to the authorize endpoint.
 * @example consentPage({ client, person, tenants, scopes, params, action: '/oauth/authorize', requestId });
 */
export function consentPage(opts: {
  client: ClientRecord;
  person: Person;
  tenants: string[];
  scopes: Scope[];
  params: OAuthParams;
  action: string;
  requestId: string;
}): PlainResponse {
  const { client, person } = opts;
  const hidden = Object.entries(opts.params)
    .filter(([k]) => k !== 'prompt' && k !== 'consent')
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('\n    ');
  const rights = opts.scopes
    .map((s) => `<li><code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPES[s])}</li>`)
    .join('\n      ');
  const body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Consent: ${escapeHtml(client.name)}</title></head>
<body>
  <h1>${escapeHtml(client.name)} asks for access</h1>
  <p>Signed in (sandbox test person): <strong>${escapeHtml(person.name)}</strong> &lt;${escapeHtml(person.email)}&gt;</p>
  <p>Tenants: ${opts.tenants.map(escape).join(', ')}</p>
  <p>Requested rights:</p>
  <ul>
      ${rights}
  </ul>
  <form method="post" action="${escapeHtml(opts.action)}">
    ${hidden}
    <button type="submit" name="consent" value="allow">Allow</button>
    <button type="submit" name="consent" value="deny">Deny</button>
  </form>
</body>
</html>
`;
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'x-request-id': opts.requestId,
      ...NO_STORE,
      'content-security-policy': "default-src 'none'",
      'x-frame-options': 'DENY',
    },
    body,
  };
}
