// Which redirect URIs an authorization request may name: exactly a registered one (OAuth 2.1 2.3.1), except
// that a loopback IP redirect URI may name any port (OAuth 2.1 8.4.2, RFC 8252 7.3): a native app or CLI
// listens on a port the system hands it when the sign-in starts, so it cannot register that port.

/** `http://` + a loopback IP literal, its port if any, and everything after the port. */
const LOOPBACK_IP = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::([0-9]*))?(?=[/?#]|$)/;

/** A port as a URI names one: decimal, no leading zero, 1-65535. */
const validPort = (port: string | undefined) =>
  port === undefined || (/^[1-9][0-9]{0,4}$/.test(port) && Number(port) <= 65_535);

/**
 * Whether `sent` names the registered redirect URI `registered`: the same string, or, for a loopback IP
 * literal (127.0.0.1 or [::1] over http; not `localhost`, whose name a host file can point anywhere),
 * the same string but for the port. Nothing is normalised: case, dots, encodings and a trailing slash count.
 * @example redirectMatches('http://127.0.0.1:8976/callback', 'http://127.0.0.1:53122/callback') // true
 * @example redirectMatches('http://localhost:8976/callback', 'http://localhost:53122/callback') // false
 */
export function redirectMatches(registered: string, sent: string): boolean {
  if (registered === sent) return true;
  const r = LOOPBACK_IP.exec(registered);
  const s = LOOPBACK_IP.exec(sent);
  if (!r || !s || r[1] !== s[1] || !validPort(s[2])) return false;
  return registered.slice(r[0].length) === sent.slice(s[0].length);
}
