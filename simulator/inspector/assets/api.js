// The page's calls to its own JSON API (same origin; the HttpOnly session cookie goes along by itself).
// The cookie alone opens nothing: every call also carries the session secret, which the login redirect
// put in this page's URL fragment (never sent to a server). It is kept in localStorage, which is scoped
// to scheme, host AND port, so another program listening on 127.0.0.1 cannot read it (cookies ignore
// the port).

const BASE = '/_sandbox/inspector/api';
const KEY = 'ncs-inspector-session';
const fromLink = /^#session=([\w-]+)$/.exec(location.hash)?.[1];
if (fromLink) {
  localStorage.setItem(KEY, fromLink);
  // Out of the address bar and history; the views' own #names take the fragment over.
  history.replaceState(null, '', location.pathname + location.search);
}
const secret = localStorage.getItem(KEY) ?? '';

async function call(method, path, body) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: {
      'x-ncs-inspector-session': secret,
      ...(method === 'GET' ? {} : { 'content-type': 'application/json', 'x-ncs-inspector': '1' }),
    },
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
// EventSource cannot set headers: the live stream takes the secret as a query parameter.
export const LIVE_URL = `${BASE}/live?session=${encodeURIComponent(secret)}`;
