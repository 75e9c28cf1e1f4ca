import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 31 of the unseen violations, part 4: channels — both resume positions added up, the first
 * resumed message numbered as the cursor, and the cursor dropped under the alternate address.
 */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
const resumeAt = (c: ProxyCall) => {
  const v = c.search.get('cursor') ?? c.headers['last-event-id'];
  return v === undefined || v === null ? undefined : v;
};
/** Per-connection state of a stream hook (the call object lives as long as its stream). */
const perStream = new WeakMap<ProxyCall, { first: boolean }>();

export const ROUND31_CHANNELS: UnseenViolation[] = [
  {
    name: 'both-resume-positions-added',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)',
    request(c) {
      // The resume position is accumulated over both sources ("offset += value") instead of chosen.
      if (!isStream(c)) return undefined;
      const q = c.search.get('cursor');
      const h = c.headers['last-event-id'];
      if (q === null || h === undefined || !/^\d+$/.test(q) || !/^\d+$/.test(h)) return undefined;
      c.search.set('cursor', String(Number(q) + Number(h)));
      delete c.headers['last-event-id'];
      return undefined;
    },
  },
  {
    name: 'resumed-first-message-numbered-as-cursor',
    statement: 'Events: Every message carries a consecutive number … the client resumes … (last number read)',
    stream(c, lines) {
      // The resumed stream's first frame reuses the position variable before it is incremented.
      if (!isStream(c)) return lines;
      const at = resumeAt(c);
      if (at === undefined || !/^\d+$/.test(at)) return lines;
      const state = perStream.get(c) ?? { first: true };
      perStream.set(c, state);
      if (!state.first) return lines;
      return lines.replace(/^id: ?(\d+)\s*$/m, () => {
        state.first = false;
        return `id: ${at}`;
      });
    },
  },
  {
    name: 'alt-stream-cursor-ignored',
    statement: 'GET /api/public/v1/stream: cursor — query, integer, minimum 0, last number read (under {alt_base_url})',
    request(c) {
      // The alternate domain's CDN strips query strings from the stream's cache key and the origin request;
      // Last-Event-ID passes as a header.
      if (c.base === 'alt' && isStream(c) && c.search.has('cursor')) c.search.delete('cursor');
      return undefined;
    },
  },
];
