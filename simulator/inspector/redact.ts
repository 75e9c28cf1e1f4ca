/** Placeholder written where a secret was. */
export const REDACTED = '[redacted]';

// Header names that carry credentials. Matching by pattern catches custom ones (x-api-token, x-client-secret).
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|token|secret|password|api-key|signature/i;
// Field names in JSON, form and query bodies: OAuth grants, webhook signing secrets, refresh tokens, PKCE.
const SECRET_FIELD = /token|secret|password|^code$|code_verifier|assertion/i;
// Names that mention tokens without holding one (token_type, OAuth metadata such as token_endpoint).
const NOT_SECRET = /^token_type$|endpoint|supported|methods|ttl|expires/i;
const isSecret = (name: string) => SECRET_FIELD.test(name) && !NOT_SECRET.test(name);

/**
 * Headers with every credential replaced; the scheme of Authorization is kept so a reader sees what was sent.
 * @example redactHeaders({ authorization: 'Bearer ncs_at_x' }) // { authorization: 'Bearer [redacted]' }
 */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADER.test(name)) out[name] = value;
    else if (/authorization$/i.test(name)) {
      const scheme = /^(\w+)\s/.exec(value)?.[1];
      out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else out[name] = REDACTED;
  }
  return out;
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = isSecret(k) && v !== null ? REDACTED : redactValue(v);
    return out;
  }
  return value;
}

/**
 * A body as text with secret fields replaced: JSON by key at any depth, form-encoded by name; other text unchanged.
 * @example redactBody('{"signingSecret":"whsec_1"}', 'application/json') // '{"signingSecret":"[redacted]"}'
 */
export function redactBody(text: string, contentType = ''): string {
  if (!text) return text;
  if (/json/i.test(contentType) || /^\s*[[{]/.test(text)) {
    try {
      return JSON.stringify(redactValue(JSON.parse(text)), null, 2);
    } catch {
      // Not JSON after all: fall through to the form and plain-text rules.
    }
  }
  if (/x-www-form-urlencoded/i.test(contentType)) return redactQuery(text);
  // Plain text that still carries a bearer token (e.g. an echoed header) is masked too.
  return text.replace(/\b(ncs_[a-z]+_)[A-Za-z0-9_-]+/g, `$1${REDACTED}`);
}

/**
 * A query string or form body with secret parameters replaced.
 * @example redactQuery('grant_type=client_credentials&client_secret=s') // 'grant_type=client_credentials&client_secret=%5Bredacted%5D'
 */
export function redactQuery(text: string): string {
  const params = new URLSearchParams(text);
  for (const key of [...new Set(params.keys())]) if (isSecret(key)) params.set(key, REDACTED);
  return params.toString();
}
