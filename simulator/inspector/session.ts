import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PlainRequest } from '../core/types.ts';
import { INSPECTOR_PREFIX } from './paths.ts';

/** Prefix of the inspector's session cookie; each simulator adds its own instance id. */
export const SESSION_COOKIE = 'ncs_inspector';
/** Header the page sends on every API call with its session secret. */
export const SESSION_SECRET_HEADER = 'x-ncs-inspector-session';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The inspector's login: a one-time token (printed in the serve banner, like Jupyter's `?token=`) that is
 * exchanged once for a session. A session is two halves: an HttpOnly cookie, and a secret handed to the
 * page in the redirect's fragment (never sent to a server) that its script keeps in localStorage (scoped
 * to scheme, host and port) and sends as `x-ncs-inspector-session` on every API call. Cookies ignore the
 * port, so any other process listening on 127.0.0.1 that the browser visits receives the cookie; without
 * the secret it is worthless. The cookie's name carries an instance id, so two simulators side by side do
 * not overwrite each other's session. Only digests are kept: a heap dump shows no live credential.
 * @example const s = createSessions(); const l = s.login(s.loginToken)!; s.valid(`${s.cookieName}=${l.id}`, l.secret) // true
 */
export function createSessions(opts: { loginToken?: string; maxSessions?: number; instance?: string } = {}) {
  let loginDigest: Buffer | undefined;
  let loginToken = '';
  /** Digest of the cookie id → digest of the page secret. */
  const sessions = new Map<string, Buffer>();
  const max = opts.maxSessions ?? 20;
  const cookieName = `${SESSION_COOKIE}_${opts.instance ?? randomBytes(6).toString('hex')}`;
  const mint = (given?: string) => {
    loginToken = given ?? `ncs_login_${randomBytes(24).toString('base64url')}`;
    loginDigest = digest(loginToken);
    return loginToken;
  };
  mint(opts.loginToken);
  const cookieId = (cookieHeader: string | undefined) => {
    for (const part of (cookieHeader ?? '').split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === cookieName) return part.slice(eq + 1).trim();
    }
    return undefined;
  };
  function valid(cookieHeader: string | undefined, secret?: string): boolean {
    const id = cookieId(cookieHeader);
    const expected = id ? sessions.get(digest(id).toString('hex')) : undefined;
    if (!expected) return false;
    if (secret === undefined) return true;
    return timingSafeEqual(digest(secret), expected);
  }
  return {
    cookieName,
    /** The token of the current login URL (spent after one successful login). */
    get loginToken() {
      return loginToken;
    },
    /** Issues a fresh one-time token (e.g. for a second browser); the previous one stops working. */
    newLoginToken: () => mint(),
    /** Spends the login token; returns the session's cookie id, page secret, Set-Cookie and redirect target. */
    login(token: string): { id: string; secret: string; setCookie: string; location: string } | undefined {
      if (!loginDigest || !timingSafeEqual(digest(token), loginDigest)) return undefined;
      loginDigest = undefined;
      const id = randomBytes(32).toString('base64url');
      const secret = randomBytes(32).toString('base64url');
      sessions.set(digest(id).toString('hex'), digest(secret));
      // The oldest session goes first once too many browsers logged in.
      const oldest = sessions.keys().next();
      if (sessions.size > max && !oldest.done) sessions.delete(oldest.value);
      return {
        id,
        secret,
        setCookie: `${cookieName}=${id}; Path=${INSPECTOR_PREFIX}; HttpOnly; SameSite=Strict`,
        location: `${INSPECTOR_PREFIX}/#session=${secret}`,
      };
    },
    /**
     * Whether a Cookie header carries a live session; with `secret`, whether it is that session's secret too.
     * The page's static files need the cookie only (they hold no data); every API call needs both.
     */
    valid,
    /**
     * The session check of one inspector request: undefined when it may pass, else what is missing.
     * API calls need the secret from the `x-ncs-inspector-session` header; the live stream, opened by
     * EventSource (which cannot set headers), may carry it as `?session=`.
     */
    check(req: PlainRequest, sub: string): 'cookie' | 'secret' | undefined {
      if (!valid(req.headers.cookie)) return 'cookie';
      if (!sub.startsWith('/api/')) return undefined;
      const header = req.headers[SESSION_SECRET_HEADER];
      const query = sub === '/api/live' ? req.query.session : undefined;
      const secret = typeof header === 'string' ? header : typeof query === 'string' ? query : '';
      return valid(req.headers.cookie, secret) ? undefined : 'secret';
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
