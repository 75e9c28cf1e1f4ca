import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { earlier, type Rec } from './round44-common.ts';

/** Round 57, part 4: the status stream at its edges (resuming at or beyond the newest number, both positions, after a burst). */
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
/** The feed a stream reads: the tenant's with a token, else the public one. */
const feedOf = (c: ProxyCall) => (c.headers.authorization ? `t:${c.headers['x-service-tenant'] ?? ''}` : 'public');
const NUM = /^\d+$/;
/** The resume position a stream call sends (cursor first, then Last-Event-ID), or undefined. */
const positionOf = (c: ProxyCall) => {
  const cur = c.search.get('cursor');
  if (cur !== null && NUM.test(cur)) return Number(cur);
  const last = c.headers['last-event-id'];
  return last !== undefined && NUM.test(last.trim()) ? Number(last.trim()) : undefined;
};
/** The numbered messages of a piece of stream text, each with its number and whole text (blank line included). */
const messagesOf = (lines: string) =>
  [...lines.matchAll(/^id: (\d+)\n(?:[^\n]+\n)*?\n/gm)].map((m) => ({
    text: m[0],
    id: Number(m[1]),
  }));
const dataOf = (text: string): Rec | undefined => {
  const line = /^data: (.*)$/m.exec(text)?.[1];
  try {
    return line ? (JSON.parse(line) as Rec) : undefined;
  } catch {
    return undefined;
  }
};
const connectionIdOf = (text: string) => {
  const d = dataOf(text);
  const id = d?.connection?.id ?? (d?.target?.type === 'connection' ? d.target.id : undefined) ?? d?.connectionId;
  return typeof id === 'string' ? id : undefined;
};
/** The newest number each feed sent, as the streams passing the proxy saw it (a violation's own memory). */
const newestOf = (c: ProxyCall, slot: string) => {
  const m = (c.memory.get(slot) as Map<string, { id: number; text: string }> | undefined) ?? new Map();
  c.memory.set(slot, m);
  return m as Map<string, { id: number; text: string }>;
};
const noteNewest = (c: ProxyCall, slot: string, lines: string) => {
  const m = newestOf(c, slot);
  for (const msg of messagesOf(lines)) {
    const known = m.get(feedOf(c));
    if (!known || msg.id > known.id) m.set(feedOf(c), msg);
  }
};
const shiftIds = (lines: string, from: number, by: number) =>
  lines.replace(/^id: (\d+)$/gm, (all, n: string) => (Number(n) >= from ? `id: ${Number(n) + by}` : all));

/** Per stream call: what a violation decided when the call came in. */
const plans = new WeakMap<ProxyCall, Rec>();

export const ROUND57_CHANNELS: UnseenViolation[] = [
  {
    name: 'cursor-beyond-newest-adopted-as-counter',
    statement:
      'Events: Every message carries a consecutive number; Limits: cursor | integer, minimum 0 (a resume position beyond the newest number sent)',
    request(c) {
      // The resume handler does feed.seq = Math.max(feed.seq, cursor) "so numbers never go backwards", skipping numbers.
      home(c);
      const at = positionOf(c);
      const known = newestOf(c, 'r57-a').get(feedOf(c));
      if (isStream(c) && at !== undefined && known && at > known.id)
        plans.set(c, { from: known.id + 1, by: at - known.id });
      return undefined;
    },
    stream(c, lines) {
      home(c);
      if (!isStream(c)) return lines;
      noteNewest(c, 'r57-a', lines);
      const plan = plans.get(c);
      return plan ? shiftIds(lines, plan.from, plan.by) : lines;
    },
  },
  {
    name: 'cursor-beyond-newest-refused-as-invalid',
    statement:
      'GET /api/public/v1/stream: cursor | query | integer, minimum 0 | no | last number read; Limits: cursor | integer, minimum 0 (a cursor one beyond the newest number sent)',
    request(c) {
      // The validator checks the cursor against the feed's range [0, lastId] and answers 400 for anything above it.
      home(c);
      const at = positionOf(c);
      const known = newestOf(c, 'r57-b').get(feedOf(c));
      if (!isStream(c) || at === undefined || !known || at <= known.id) return undefined;
      const answer = {
        status: 400,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        json: {} as Rec,
      };
      refuse(answer, 400, 'invalid_request', 'The cursor is out of range.');
      answer.json.meta = {
        requestId: `req_${Date.now().toString(36)}`,
        version: '2026-07-01',
        at: new Date().toISOString(),
      };
      return answer;
    },
    stream(c, lines) {
      home(c);
      if (isStream(c)) noteNewest(c, 'r57-b', lines);
      return lines;
    },
  },
  {
    name: 'resume-at-newest-resends-newest-renumbered',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a resume position equal to the newest number sent)',
    request(c) {
      // The backlog query uses id >= cursor and the writer stamps every backlog row with the next free number as it sends it.
      home(c);
      const at = positionOf(c);
      const known = newestOf(c, 'r57-c').get(feedOf(c));
      if (isStream(c) && at !== undefined && known && at === known.id) plans.set(c, { text: known.text, id: known.id });
      return undefined;
    },
    stream(c, lines) {
      home(c);
      if (!isStream(c)) return lines;
      const plan = plans.get(c);
      if (!plan) {
        noteNewest(c, 'r57-c', lines);
        return lines;
      }
      const out = shiftIds(lines, (plan.id as number) + 1, 1);
      if (plan.sent) return out;
      plan.sent = true;
      return `${String(plan.text).replace(/^id: \d+$/m, `id: ${(plan.id as number) + 1}`)}${out}`;
    },
  },
  {
    name: 'resumed-backlog-keeps-latest-per-connection',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (a backlog holding several messages about one connection)',
    request(c) {
      // The catch-up query was "optimised" with DISTINCT ON (connection_id) ORDER BY id DESC, keeping one message per connection.
      home(c);
      const at = positionOf(c);
      const about = c.memory.get('r57-about') as Map<string, Map<number, string>> | undefined;
      const feed = about?.get(feedOf(c));
      if (!isStream(c) || at === undefined || !feed) return undefined;
      const newest = new Map<string, number>();
      for (const [id, con] of feed) if (id > at && id > (newest.get(con) ?? -1)) newest.set(con, id);
      const drop = new Set<number>();
      for (const [id, con] of feed) if (id > at && newest.get(con) !== id) drop.add(id);
      if (drop.size > 0) plans.set(c, { drop });
      return undefined;
    },
    stream(c, lines) {
      home(c);
      if (!isStream(c)) return lines;
      const about = (c.memory.get('r57-about') as Map<string, Map<number, string>> | undefined) ?? new Map();
      c.memory.set('r57-about', about);
      const feed = about.get(feedOf(c)) ?? new Map<number, string>();
      about.set(feedOf(c), feed);
      const drop = plans.get(c)?.drop as Set<number> | undefined;
      let out = lines;
      for (const m of messagesOf(lines)) {
        const con = connectionIdOf(m.text);
        if (con && !feed.has(m.id)) feed.set(m.id, con);
        if (drop?.has(m.id)) out = out.replace(m.text, '');
      }
      return out;
    },
  },
  {
    name: 'resume-by-timestamp-drops-rest-of-burst',
    statement:
      'Events: After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read) (a resume position in the middle of a burst of messages)',
    request(c) {
      // The backlog is read with created_at > (created_at of the cursor's message), so the rest of its millisecond is skipped.
      home(c);
      const at = positionOf(c);
      const seen = c.memory.get('r57-seen') as Map<string, number> | undefined;
      const t = seen?.get(`${feedOf(c)}#${at}`);
      if (isStream(c) && at !== undefined && t !== undefined) plans.set(c, { at, t });
      return undefined;
    },
    stream(c, lines) {
      home(c);
      if (!isStream(c)) return lines;
      const seen = (c.memory.get('r57-seen') as Map<string, number> | undefined) ?? new Map<string, number>();
      c.memory.set('r57-seen', seen);
      const now = Date.now();
      const plan = plans.get(c);
      let out = lines;
      for (const m of messagesOf(lines)) {
        const slot = `${feedOf(c)}#${m.id}`;
        const t = seen.get(slot);
        if (t === undefined) seen.set(slot, now);
        if (plan && m.id > (plan.at as number) && t !== undefined && Math.abs(t - (plan.t as number)) <= 1)
          out = out.replace(m.text, '');
      }
      return out;
    },
  },
  {
    name: 'earlier-version-creation-announced-twice',
    statement:
      'Events: Every message carries a consecutive number and arrives exactly once (a connection created under 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 handler still publishes connection.created itself, and the outbox relay added later publishes it again.
      home(c);
      if (
        isCreate(c) &&
        earlier(c) &&
        a.status === 200 &&
        a.json.meta?.replayed !== true &&
        typeof a.json.data?.id === 'string'
      ) {
        const ids = (c.memory.get('r57-earlier-created') as Set<string> | undefined) ?? new Set<string>();
        ids.add(a.json.data.id);
        c.memory.set('r57-earlier-created', ids);
      }
    },
    stream(c, lines) {
      home(c);
      const ids = c.memory.get('r57-earlier-created') as Set<string> | undefined;
      if (!isStream(c) || !ids?.size) return lines;
      const plan = plans.get(c) ?? { by: 0 };
      plans.set(c, plan);
      let out = '';
      let rest = lines;
      for (const m of messagesOf(lines)) {
        const i = rest.indexOf(m.text);
        if (i < 0) continue;
        out += shiftIds(rest.slice(0, i + m.text.length), 0, plan.by as number);
        rest = rest.slice(i + m.text.length);
        const id = connectionIdOf(m.text);
        if (id && ids.has(id) && /^event: connection\.created$/m.test(m.text)) {
          plan.by = (plan.by as number) + 1;
          out += shiftIds(m.text, 0, plan.by as number);
        }
      }
      return out + shiftIds(rest, 0, plan.by as number);
    },
  },
  {
    name: 'both-resume-positions-refused',
    statement:
      'GET /api/public/v1/stream: cursor | query | no | last number read; Last-Event-ID | header | no | last number read; Events: the client resumes ... by sending Last-Event-ID or the query parameter cursor (both sent with the same number)',
    request(c) {
      // The parameter schema marks cursor and Last-Event-ID as mutually exclusive ("oneOf"), so a client sending both gets 400.
      home(c);
      if (!isStream(c) || c.search.get('cursor') === null || c.headers['last-event-id'] === undefined) return undefined;
      const answer = { status: 400, headers: { 'content-type': 'application/json; charset=utf-8' }, json: {} as Rec };
      refuse(answer, 400, 'invalid_request', 'Send either cursor or Last-Event-ID, not both.');
      answer.json.meta = {
        requestId: `req_${Date.now().toString(36)}`,
        version: '2026-07-01',
        at: new Date().toISOString(),
      };
      return answer;
    },
  },
];
