// The page's calls to its own JSON API (same origin; the HttpOnly session cookie goes along by itself).

const BASE = '/_sandbox/inspector/api';

async function call(method, path, body) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: method === 'GET' ? {} : { 'content-type': 'application/json', 'x-ncs-inspector': '1' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok || json.ok === false) {
    const e = json.error ?? {};
    throw new Error(`${res.status} ${e.code ?? ''}: ${e.detail ?? e.message ?? res.statusText}`);
  }
  return json.data;
}

export const get = (path) => call('GET', path);
export const post = (path, body = {}) => call('POST', path, body);
export const del = (path) => call('DELETE', path);
export const LIVE_URL = `${BASE}/live`;
