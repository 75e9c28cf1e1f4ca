import type { Exchange } from '../client/http-client.ts';

/** One exchange of a run and the check that made it ('run' for the kit's own preflight calls). */
export interface LoggedExchange {
  check: string;
  ex: Exchange;
}

/**
 * Every exchange of a run, in the order answers arrived: the response rules judge all of them
 * (the way Schemathesis applies its checks to every response), not only a check's own samples.
 * @example const log = createExchangeLog(); log.record('auth.missing-token', ex); log.all().length // 1
 */
export function createExchangeLog() {
  const entries: LoggedExchange[] = [];
  return {
    record(check: string, ex: Exchange) {
      entries.push({ check, ex });
    },
    /** A snapshot: exchanges recorded later (by the judging checks themselves) are not in it. */
    all(): readonly LoggedExchange[] {
      return [...entries];
    },
  };
}

export type ExchangeLog = ReturnType<typeof createExchangeLog>;
