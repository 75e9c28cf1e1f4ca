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

// Values that are credentials whatever header carries them: an auth scheme, the simulator's own token
// prefixes (ncs_at_, ncs_rt_, ncs_ac_, ncs_admin_, ncs_login_), webhook signing secrets, JWTs.
const SCHEME_VALUE = /^(bearer|basic|digest|token|apikey|dpop)\s+\S/i;
const SECRET_VALUE = /\bncs_[a-z]+_[\w-]{6,}|\bwhsec_[\w-]{6,}|\beyJ[\w-]{4,}\.[\w-]{4,}\.|-secret-[\w-]{6,}/;
// Where a URL may sit in a header (the code in /oauth/authorize's 302 Location, a Link, a Refresh).
const URL_HEADER = /^(location|content-location|link|refresh)$/i;
// The password of http://user:pass@host, wherever a URL appears in text.
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'<>]*:)([^\s/?#@"'<>]*)@/gi;

/** A URL (or any text holding URLs) with its password and secret query parameters masked. */
function redactUrls(text: string): string {
  const masked = text.replace(URL_USERINFO, `$1${REDACTED}@`);
  return masked.replace(/\?([^\s#"'<>]*)/g, (whole, query: string) =>
    /=/.test(query) ? `?${redactQuery(query).replaceAll('%5Bredacted%5D', REDACTED)}` : whole,
  );
}

/**
 * Headers with every credential replaced; the scheme of Authorization is kept so a reader sees what was sent.
 * Besides names (authorization, cookie, anything named like a token or secret), values are judged too:
 * a token under an unusual header name (x-auth: Bearer …) is masked as well.
 * @example redactHeaders({ authorization: 'Bearer ncs_at_x' }) // { authorization: 'Bearer [redacted]' }
 */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    // A URL keeps its shape (path, state, iss) with only the code, token or password masked.
    const value = URL_HEADER.test(name) ? redactUrls(raw) : raw;
    const scheme = /^(\w+)\s/.exec(value)?.[1];
    if (SECRET_HEADER.test(name) || SCHEME_VALUE.test(value) || SECRET_VALUE.test(value))
      out[name] =
        (/authorization$/i.test(name) || SCHEME_VALUE.test(value)) && scheme ? `${scheme} ${REDACTED}` : REDACTED;
    else out[name] = value;
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
  return typeof value === 'string' ? value.replace(URL_USERINFO, `$1${REDACTED}@`) : value;
}

// A multipart part: its headers name it, its content follows the blank line up to the next boundary.
const MULTIPART_PART = /(name="([^"]*)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n)([\s\S]*?)(?=\r?\n--)/g;
// name=value or name: value inside free text (a form body sent as text/plain, a log line).
const TEXT_PAIR = /\b([A-Za-z][\w.-]{0,63})(["']?\s*[=:]\s*["']?)([^\s&"',;]+)/g;

/**
 * A body as text with secret fields replaced: JSON by key at any depth, form-encoded and multipart by
 * name, `name=value` pairs in any other text; URL passwords and the simulator's token formats everywhere.
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
  let out = text;
  if (/multipart\//i.test(contentType) || /^--\S+\r?\n/.test(text))
    out = out.replace(MULTIPART_PART, (whole, head: string, name: string) =>
      isSecret(name) ? `${head}${REDACTED}` : whole,
    );
  out = out.replace(TEXT_PAIR, (whole, name: string, sep: string) =>
    isSecret(name) ? `${name}${sep}${REDACTED}` : whole,
  );
  out = out.replace(URL_USERINFO, `$1${REDACTED}@`);
  // Plain text that still carries a bearer token (e.g. an echoed header) is masked too.
  return out.replace(/\b(ncs_[a-z]+_)[A-Za-z0-9_-]+/g, `$1${REDACTED}`).replace(/\b(whsec_)[\w-]+/g, `$1${REDACTED}`);
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
