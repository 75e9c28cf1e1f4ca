import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { INSPECTOR_PREFIX } from './paths.ts';

/** Name of the inspector's session cookie. */
export const SESSION_COOKIE = 'ncs_inspector';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The inspector's login: a one-time token (printed in the serve banner, like Jupyter's `?token=`) that is
 * exchanged once for a session cookie. Only digests are kept, so a heap dump shows no live credential.
 * @example const s = createSessions(); const cookie = s.login(s.loginToken); s.valid(`ncs_inspector=${cookie?.id}`) // true
 */
export function createSessions(opts: { loginToken?: string; maxSessions?: number } = {}) {
  let loginDigest: Buffer | undefined;
  let loginToken = '';
  const sessions = new Set<string>();
  const max = opts.maxSessions ?? 20;
  const mint = (given?: string) => {
    loginToken = given ?? `ncs_login_${randomBytes(24).toString('base64url')}`;
    loginDigest = digest(loginToken);
    return loginToken;
  };
  mint(opts.loginToken);
  return {
    /** The token of the current login URL (spent after one successful login). */
    get loginToken() {
      return loginToken;
    },
    /** Issues a fresh one-time token (e.g. for a second browser); the previous one stops working. */
    newLoginToken: () => mint(),
    /** Spends the login token; returns the session id and its Set-Cookie value, or undefined. */
    login(token: string): { id: string; setCookie: string } | undefined {
      if (!loginDigest || !timingSafeEqual(digest(token), loginDigest)) return undefined;
      loginDigest = undefined;
      const id = randomBytes(32).toString('base64url');
      sessions.add(digest(id).toString('hex'));
      // The oldest session goes first once too many browsers logged in.
      if (sessions.size > max) sessions.delete(sessions.values().next().value!);
      return {
        id,
        setCookie: `${SESSION_COOKIE}=${id}; Path=${INSPECTOR_PREFIX}; HttpOnly; SameSite=Strict`,
      };
    },
    /** Whether a Cookie header carries a live session. */
    valid(cookieHeader: string | undefined): boolean {
      if (!cookieHeader) return false;
      for (const part of cookieHeader.split(';')) {
        const [name, value] = part.trim().split('=', 2);
        if (name === SESSION_COOKIE && value && sessions.has(digest(value).toString('hex'))) return true;
      }
      return false;
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
