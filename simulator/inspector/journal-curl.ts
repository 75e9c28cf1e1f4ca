import { CONTROL_PREFIX } from '../control/routes.ts';
import type { JournalDetail } from './journal.ts';
import { REDACTED } from './redact.ts';

// Headers curl sets itself or that only describe the original connection.
const SKIP = new Set(['host', 'content-length', 'connection', 'accept-encoding', 'user-agent', 'cookie']);
const quote = (s: string) => `'${s.replace(/'/g, `'"'"'`)}'`;

/**
 * A curl command repeating a journaled call; redacted credentials become shell variables
 * ($NCS_TOKEN for the API, $NCS_ADMIN_TOKEN for the control plane) so the command carries no secret.
 * @example journalCurl(detail, 'http://127.0.0.1:4010') // curl -sS -i -X GET 'http://…/providers' -H 'authorization: Bearer '"$NCS_TOKEN"
 */
export function journalCurl(d: JournalDetail, origin: string): string {
  const url = `${origin}${d.path}${d.query ? `?${d.query}` : ''}`;
  const parts = ['curl -sS -i', `-X ${d.method}`, quote(url)];
  const variable = d.path.startsWith(CONTROL_PREFIX) ? 'NCS_ADMIN_TOKEN' : 'NCS_TOKEN';
  for (const [name, value] of Object.entries(d.requestHeaders)) {
    if (SKIP.has(name)) continue;
    if (name === 'authorization' && value.endsWith(REDACTED)) {
      const scheme = value.slice(0, -REDACTED.length).trim() || 'Bearer';
      parts.push(`-H ${quote(`authorization: ${scheme} `)}"$${variable}"`);
    } else parts.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  if (d.requestBody) parts.push(`--data-binary ${quote(d.requestBody)}`);
  return parts.join(' ');
}
