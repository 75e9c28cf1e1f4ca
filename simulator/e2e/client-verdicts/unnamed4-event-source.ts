import { sleepOn, type Target } from '../harness.ts';
import { silenceWatch } from './silence.ts';

/**
 * A browser EventSource as the HTML standard defines it, on the public status stream: no credentials
 * and no custom headers (it cannot send any), `Accept: text/event-stream`, `Cache-Control: no-cache`, an
 * Origin; when the server ends the stream it waits the reconnection time (the last `retry:` field, else
 * 3 s) and reconnects to the same URL, adding `Last-Event-ID` with the last id it saw; a non-200 answer
 * fails the connection for good (no reconnect). Reconnection waits are on the sandbox clock.
 */
export interface EventSourceRun {
  /** Ids seen, in order, over every connection. */
  ids: number[];
  /** Why it stopped: `closed` (the page closed it) or `failed` (a non-200 answer). */
  end: 'closed' | 'failed';
}

export async function eventSource(
  t: Target,
  url: string,
  o: {
    /** Reconnections the page lets happen before it closes the EventSource. */
    reconnects: number;
    /** Runs on every open (the test publishes there). */
    onOpen?: (connection: number) => void;
    idleMs?: number;
    /** The last id a previous EventSource of the page saw: a new EventSource starts without it. */
    lastEventId?: string;
  },
): Promise<EventSourceRun> {
  const ids: number[] = [];
  let lastEventId = o.lastEventId ?? '';
  let reconnectMs = 3000;
  for (let connection = 0; connection <= o.reconnects; connection++) {
    const res = await t.fetch(`${t.baseUrl}${url}`, {
      headers: {
        accept: 'text/event-stream',
        'cache-control': 'no-cache',
        origin: 'https://status.partner.example',
        ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
      },
    });
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      return { ids, end: 'failed' };
    }
    const reader = res.body?.getReader();
    if (!reader) return { ids, end: 'failed' };
    o.onOpen?.(connection);
    const decoder = new TextDecoder();
    let text = '';
    let ended = false;
    let silent = false;
    const idle = silenceWatch(o.idleMs ?? 600, () => {
      silent = true;
      void reader.cancel().catch(() => undefined);
    });
    for (;;) {
      idle.heard();
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) {
        // The server ended it (a cut, a restart), not the page's own silence timeout.
        ended = !silent;
        break;
      }
      text += decoder.decode(value, { stream: true });
      for (let cut = text.indexOf('\n\n'); cut !== -1; cut = text.indexOf('\n\n')) {
        const block = text.slice(0, cut);
        text = text.slice(cut + 2);
        const id = /^id: ?(.*)$/m.exec(block)?.[1];
        if (id !== undefined) {
          lastEventId = id;
          if (/^\d+$/.test(id)) ids.push(Number(id));
        }
        const retry = /^retry: ?(\d+)$/m.exec(block)?.[1];
        if (retry) reconnectMs = Number(retry);
      }
    }
    idle.stop();
    await reader.cancel().catch(() => undefined);
    // Silence the page gave up on, or the last reconnection allowed: the page closes the EventSource.
    if (!ended || connection === o.reconnects) break;
    await sleepOn(t, reconnectMs);
  }
  return { ids, end: 'closed' };
}
