// The internal host:port sign, found without running its pattern over the whole text: on the
// kit's largest answers (the OpenAPI document, ~160 KB, fetched several times a run) the pattern tried
// every word as the start of a dotted host name and cost more than all the other signs together.

/** An internal service's host and port: loopback, private ranges, cluster-internal names. */
export const HOST_PORT =
  /\b(?:localhost|127(?:\.\d{1,3}){3}|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|[\w-]+(?:\.[\w-]+)*\.(?:internal|local|svc|cluster\.local|lan|corp))(?::\d{2,5})\b/i;

/** Where a match can end: a colon and 2-5 digits, exactly the pattern's own port part. */
const PORT = /:\d{2,5}\b/g;

/** The characters a host of the pattern is made of ([\w.-]): a host never spans anything else. */
function hostChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 46 ||
    code === 45
  );
}

/**
 * The first match of HOST_PORT in `text` (what `HOST_PORT.exec(text)?.[0]` gives), found by trying the
 * pattern only on the run of host characters before each port. A host holds no colon, so every match
 * lies inside one such window and an earlier port's match starts before a later one's: the first
 * window with a match holds the leftmost match. The window keeps one character after the port so
 * the closing word boundary reads the same, and starts after a character that is no word character,
 * so the opening one does too.
 * @example findHostPort('connect ECONNREFUSED 10.0.3.17:5432') // '10.0.3.17:5432'
 */
export function findHostPort(text: string): string | undefined {
  PORT.lastIndex = 0;
  for (let m = PORT.exec(text); m; m = PORT.exec(text)) {
    const colon = m.index;
    let start = colon;
    while (start > 0 && hostChar(text.charCodeAt(start - 1))) start--;
    if (start === colon) continue;
    const found = HOST_PORT.exec(text.slice(start, colon + m[0].length + 1));
    if (found) return found[0];
  }
  return undefined;
}
