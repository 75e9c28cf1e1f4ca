import { isIP } from 'node:net';
import { ApiError } from '../core/api-error.ts';

/** Hosts receivers may point at; `*` allows any. Default: loopback only (a shared sandbox must not be an open relay). */
export const DEFAULT_WEBHOOK_HOSTS = ['localhost', '127.0.0.0/8', '::1'] as const;

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  for (const rule of allowed) {
    if (rule === '*' || rule === h) return true;
    if (rule === '127.0.0.0/8' && isIP(h) === 4 && h.startsWith('127.')) return true;
    if (rule.startsWith('*.') && h.endsWith(rule.slice(1))) return true;
  }
  return false;
}

/** The authority as written (WHATWG URL drops an empty `@` and reads `\\` as `/` in http URLs, so the raw text is read). */
const AUTHORITY = /^\s*[a-z][a-z\d+.-]*:[\\/]*([^\\/?#]*)/i;

/**
 * A receiver URL must be absolute http(s), carry no credentials (not even an empty `@`), name a port
 * other than 0, and point at an allowed host.
 * @example checkReceiverUrl('http://127.0.0.1:8976/hooks', DEFAULT_WEBHOOK_HOSTS)
 */
export function checkReceiverUrl(raw: string, allowed: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('invalid_request', { detail: 'body field url is not an absolute URL.' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ApiError('invalid_request', { detail: 'body field url must use http or https.' });
  // An empty user-info (`http://@host/`, `http://:@host/`) is credentials too: parsers disagree on it.
  if (url.username || url.password || AUTHORITY.exec(raw)?.[1]?.includes('@')) {
    throw new ApiError('invalid_request', {
      detail: 'body field url must not contain credentials.',
      hint: 'Verify deliveries by their signature instead of credentials in the URL.',
    });
  }
  if (url.port === '0')
    throw new ApiError('invalid_request', {
      detail: 'body field url names port 0, which no receiver can listen on.',
      hint: 'Give the port your receiver listens on (1 to 65535).',
    });
  if (!hostAllowed(url.hostname, allowed)) {
    throw new ApiError('invalid_request', {
      detail: 'body field url points at a host this sandbox does not deliver to.',
      hint: `Allowed hosts: ${allowed.join(', ')} (ncs serve --webhook-allow-host <host> adds more; in code: createSandbox({ webhooks: { allowedHosts } })).`,
    });
  }
  return url;
}
