import { BASE_PATH, isSupportedVersion } from '../contract/versions.ts';
import { BURST_GAP_MS, type CallRecord, type ClientBucket, type StreamRecord } from './observation.ts';
import { type TokenSpans, tokenSpans } from './processes.ts';
import { type ClientRule, type Evidence, evidence, verdict } from './rule.ts';
import { TOKEN_RULES } from './rules-token.ts';

/** A reconnect more than this after the previous stream ended is a new start, not a resume. */
export const RECONNECT_WINDOW_MS = 5 * 60_000;
/** A client's own close may reach the server just after its reconnect: this much overlap still counts. */
export const CLOSE_RACE_MS = 1_000;
export const oneKeyOneContent: ClientRule = {
  id: 'idempotency.one-key-one-content',
  severity: 'MUST',
  title: 'One Idempotency-Key never carries changed content',
  section: 'Errors',
  sentence:
    'idempotency_conflict: same idempotency key with different content; causes: key reused, content changed afterwards; remedy: use a new key for each new operation',
  evaluate({ buckets, service }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    const validity = service.keyValidityMs ?? Number.POSITIVE_INFINITY;
    for (const b of buckets) {
      const keyed = b.calls
        .slice()
        // Only where the service compares keys (routes that require one): a key sent along with a read
        // or a capability check means nothing to it, and no content under it can conflict.
        .filter((c) => c.key !== undefined && c.modifying)
        .sort((x, y) => x.at - y.at);
      const firstOf = new Map<string, CallRecord>();
      for (const c of keyed) {
        if (c.key === undefined) continue;
        let first = firstOf.get(c.key);
        // Past the key's validity the service has forgotten it: using it again starts a new operation.
        if (first && c.at - first.at >= validity) first = undefined;
        if (!first) firstOf.set(c.key, c);
        if (c.code === 'idempotency_conflict' || (first && first.bodyHash !== c.bodyHash && first.path === c.path))
          bad.push(
            evidence(
              b,
              first ? [first.requestId, c.requestId] : [c.requestId],
              c.at,
              `key ${c.key} sent with other content`,
            ),
          );
      }
      if (keyed[0]) good.push(evidence(b, [keyed[0].requestId], keyed[0].at, `${keyed.length} keyed calls`));
    }
    return verdict(bad, good, 'clients with keyed calls', 'no modifying call with an Idempotency-Key seen yet');
  },
};

export const resumeFromLastRead: ClientRule = {
  id: 'stream.resume-from-last-read',
  severity: 'MUST',
  title: 'A stream reconnect resumes from the last number read',
  section: 'Events',
  sentence:
    'After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read).',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const b of buckets) {
      const streams = b.streams.slice().sort((x, y) => x.at - y.at);
      const resumed = new Set<StreamRecord>();
      const unsure = mayResumeDropped(b, streams);
      const spans = tokenSpans(b.calls.slice(), streams);
      const takeover = takeovers(b, streams);
      for (const next of streams) {
        const prev = interrupted(streams, next, resumed, spans, takeover);
        if (!prev) continue;
        // Parallel streams, and some no longer kept: a reconnect whose number no kept stream ended on may
        // resume one of those, so whichever kept stream it is matched with says nothing about it.
        if (prev.lastId !== next.cursor && next.cursor !== undefined && unsure(next)) continue;
        resumed.add(prev);
        const expected = prev.lastId ?? (prev.reset ? undefined : prev.cursor);
        if (expected === undefined) continue; // the client was sent nothing it could resume from
        const e = (note: string) =>
          evidence(b, [prev.requestId, next.requestId], prev.at, note, [Math.max(0, next.at - prev.endedAt)]);
        if (next.cursor === expected) good.push(e(`resumed after ${expected}`));
        else if (next.cursor === undefined)
          bad.push(e(`reconnected without Last-Event-ID or cursor after reading up to ${expected}: a gap`));
        else if (next.cursor < expected && unreadTail(prev, next.cursor))
          good.push(
            e(
              `resumed after ${next.cursor}: the client closed the stream while messages up to ${expected} were arriving, so it may not have read them`,
            ),
          );
        else if (next.cursor < expected)
          bad.push(e(`resumed from ${next.cursor} after reading up to ${expected}: messages read again`));
        else bad.push(e(`resumed from ${next.cursor}, beyond the last number sent (${expected}): a gap`));
      }
    }
    return verdict(bad, good, 'stream reconnects', 'no stream reconnect after messages were sent seen yet');
  },
};

/**
 * Whether a reconnect may resume a stream the bucket no longer keeps (its ring of stream records dropped
 * the oldest): only for a client that runs streams side by side (two kept streams open at once), whose
 * reconnects cannot be told apart by order, and only for reconnects within RECONNECT_WINDOW_MS of the
 * latest end among the dropped streams. A client with one stream at a time is judged as before: its
 * reconnect follows the stream just before it, which is kept.
 */
function mayResumeDropped(b: ClientBucket, streams: StreamRecord[]): (next: StreamRecord) => boolean {
  if (b.streamsDroppedEnd === 0) return () => false;
  const open = (s: StreamRecord) => s.endedAt || Number.POSITIVE_INFINITY;
  // Open at once for longer than a close racing its reconnect takes (CLOSE_RACE_MS).
  const together = (s: StreamRecord, t: StreamRecord) =>
    Math.min(open(s), open(t)) - Math.max(s.at, t.at) > CLOSE_RACE_MS;
  const parallel = streams.some((s, i) => streams.slice(i + 1).some((t) => together(s, t)));
  return (next) => parallel && next.at - b.streamsDroppedEnd <= RECONNECT_WINDOW_MS;
}

/**
 * A sibling process taking over another's reading (a consumer pod resuming from a shared checkpoint after the
 * first died, or after a leader election while it lives on): the reconnect names a cursor, its token opened no
 * stream before it (so it has no reading of its own to resume, and the bucket dropped none), and the earlier
 * stream's token opened no stream after that one ended (its reading was not resumed by its own process). Such a
 * reconnect resumes that stream and is judged as its resume.
 */
function takeovers(b: ClientBucket, streams: StreamRecord[]): (prev: StreamRecord, next: StreamRecord) => boolean {
  if (b.streamsDroppedEnd !== 0) return () => false;
  return (prev, next) =>
    next.cursor !== undefined &&
    prev.token !== undefined &&
    next.token !== undefined &&
    !streams.some((s) => s !== next && s.token === next.token && s.at < next.at) &&
    !streams.some((s) => s !== prev && s.token === prev.token && s.at >= prev.endedAt);
}

/**
 * `cursor` lies within the burst `prev` was sending when its client closed it: messages sent count as
 * read, except the rest of a burst still arriving when the client itself went away (a consumer that takes
 * a batch of records and closes, as a Kafka-style poller does with max.poll.records, leaves the rest of
 * the burst unread in its buffer). Resuming from a number of that burst it did read is no gap. A cursor
 * from before the burst is not: a client that closes as a burst arrives has read some of it (the one
 * that read all of it and then resumes from before it reads it again). A stream the server ended (a
 * cut, a restart, an expired token) was read to its end: the rule stays strict there.
 */
function unreadTail(prev: StreamRecord, cursor: number): boolean {
  return (
    prev.closedByClient &&
    prev.burstFirstId !== undefined &&
    prev.endedAt - prev.lastAt <= BURST_GAP_MS &&
    cursor >= prev.burstFirstId
  );
}

/**
 * The earlier stream `next` reconnects after: one that ended (up to CLOSE_RACE_MS after next opened:
 * a client's own close may reach the server after its reconnect) within RECONNECT_WINDOW_MS before it,
 * that had sent its last message before next opened (a stream opened earlier runs beside it, it does
 * not resume it), that no other stream resumed, and that the same process opened (not a stream of another
 * token in use at the same time: processes.ts). Among several (parallel streams), the one whose last
 * number next resumes from, else the one that ended last. A stream whose last number next resumes from
 * is next's own earlier reading however long ago it ended: a client may run several consumers (a live
 * worker and a batch job every few minutes), each resuming its own reading, and one that comes back
 * after the window to a stream another consumer just left resumes its own, not that one.
 */
function interrupted(
  streams: StreamRecord[],
  next: StreamRecord,
  resumed: Set<StreamRecord>,
  spans: TokenSpans,
  takeover: (prev: StreamRecord, next: StreamRecord) => boolean = () => false,
): StreamRecord | undefined {
  let best: StreamRecord | undefined;
  let continued: StreamRecord | undefined;
  for (const prev of streams) {
    if (prev === next || resumed.has(prev) || prev.at >= next.at || !prev.endedAt) continue;
    // Another process of the client (its own token, in use at the same time) resumes its own reading,
    // unless it takes over the reading of one that died (takeovers).
    if (spans.apart(prev, next) && !takeover(prev, next)) continue;
    if (next.at < prev.endedAt - CLOSE_RACE_MS || prev.lastAt > next.at) continue;
    const exact = prev.lastId !== undefined && prev.lastId === next.cursor;
    if (next.at - prev.endedAt > RECONNECT_WINDOW_MS) {
      if (exact) continued ??= prev; // an earlier reading continued, judged as the resume it is
      continue;
    }
    if (exact) return prev;
    if (!best || prev.endedAt > best.endedAt) best = prev;
  }
  return continued ?? best;
}

export const serviceVersionSent: ClientRule = {
  id: 'version.service-version-sent',
  severity: 'SHOULD',
  title: 'Calls send Service-Version with a published version',
  section: 'Versioning',
  sentence: 'Sample calls send a header Service-Version with the version identifier.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    for (const b of buckets) {
      const calls = b.calls.slice().filter((c) => c.path.startsWith(BASE_PATH));
      const without = calls.filter((c) => c.version === undefined || !isSupportedVersion(c.version.trim()));
      if (without[0])
        bad.push(
          evidence(
            b,
            without.slice(0, 5).map((c) => c.requestId),
            without[0].at,
            `${without.length} of ${calls.length} calls without a published Service-Version (first: ${without[0].version ?? 'missing'})`,
          ),
        );
      else if (calls[0]) good.push(evidence(b, [calls[0].requestId], calls[0].at, `${calls.length} calls`));
    }
    return verdict(bad, good, 'clients', 'no authenticated call seen yet');
  },
};

export const noBrowserCredentials: ClientRule = {
  id: 'auth.no-browser-credentials',
  severity: 'MUST',
  title: 'No credential is sent from a browser context',
  section: 'What the service does',
  sentence:
    "The interface is called from servers only. Access credentials stay in the partner's backend and are never sent from a browser.",
  evaluate({ buckets, browser }) {
    const bad = browser.map((r) =>
      evidence(
        r,
        [r.requestId],
        r.at,
        r.kind === 'origin-with-credentials'
          ? `a credential (Authorization, or a token in the query) sent with Origin ${r.origin}: a browser call`
          : r.kind === 'fetch-metadata-with-credentials'
            ? `a credential (Authorization, or a token in the query) sent with ${r.origin} (Fetch Metadata only a browser sends): a browser call`
            : `CORS preflight from ${r.origin} announcing an Authorization header`,
      ),
    );
    const good = buckets.flatMap((b) => {
      const first = b.calls.oldest();
      return first ? [evidence(b, [first.requestId], first.at, `${b.calls.size} calls from a server`)] : [];
    });
    return verdict(bad, good, 'clients', 'no authenticated call seen yet');
  },
};

/** The duties besides retries, in report order. */
export const ACCESS_RULES: readonly ClientRule[] = [
  oneKeyOneContent,
  resumeFromLastRead,
  serviceVersionSent,
  noBrowserCredentials,
  ...TOKEN_RULES,
];
