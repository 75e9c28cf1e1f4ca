import { ApiError } from '../core/api-error.ts';

export interface StreamLimits {
  /** Open streams per feed (one tenant's feed, or the public feed). */
  maxClientsPerFeed: number;
  /** Open streams in the whole process. */
  maxClients: number;
  /** Retry-After of the 429 when a limit is reached. */
  retryAfterSeconds: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxClientsPerFeed: 1_000,
  maxClients: 20_000,
  retryAfterSeconds: 5,
};

/**
 * Counts open streams and refuses new ones past the limits with 429 rate_limited + Retry-After.
 * @example const release = gate.admit('tenant:harbour-kitchens'); ...; release();
 */
export function createStreamGate(limits: StreamLimits = DEFAULT_STREAM_LIMITS) {
  const perFeed = new Map<string, number>();
  let total = 0;
  return {
    limits,
    admit(feed: string): () => void {
      const open = perFeed.get(feed) ?? 0;
      if (open >= limits.maxClientsPerFeed || total >= limits.maxClients) {
        throw new ApiError('rate_limited', {
          detail:
            open >= limits.maxClientsPerFeed
              ? `This feed already has ${open} open streams.`
              : 'The simulator holds the most streams it accepts.',
          hint: 'Close streams you no longer read, then retry after the Retry-After seconds.',
          headers: { 'retry-after': String(limits.retryAfterSeconds) },
        });
      }
      perFeed.set(feed, open + 1);
      total++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const n = (perFeed.get(feed) ?? 1) - 1;
        if (n <= 0) perFeed.delete(feed);
        else perFeed.set(feed, n);
      };
    },
    open: (feed?: string) => (feed === undefined ? total : (perFeed.get(feed) ?? 0)),
  };
}
export type StreamGate = ReturnType<typeof createStreamGate>;
