import autocannon from 'autocannon';

/** One HTTP load run's numbers (latencies in ms). */
export interface LoadStats {
  rps: number;
  p50: number;
  p99: number;
  p999: number;
  requests: number;
  seconds: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

export interface LoadSpec {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Replace `[<id>]` in headers and body with a fresh id per request (fresh idempotency keys). */
  freshIds?: boolean;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

function once(baseUrl: string, spec: LoadSpec, connections: number, seconds: number) {
  return autocannon({
    url: baseUrl,
    connections,
    duration: seconds,
    timeout: 10,
    requests: [
      {
        method: spec.method,
        path: spec.path,
        headers: spec.headers ?? {},
        ...(spec.body !== undefined ? { body: spec.body } : {}),
      },
    ],
    ...(spec.freshIds ? { idReplacement: true } : {}),
  });
}

/**
 * Drives `baseUrl` with autocannon: a warm-up run (discarded, lets V8 optimise the hot path), then
 * the measured run. Bounded by `seconds` (autocannon stops on its own; the timer is a second guard).
 * @example const s = await runLoad('http://127.0.0.1:4010', { method: 'GET', path: '/api/public/v1' }, { connections: 50, seconds: 5, warmupSeconds: 1 });
 */
export async function runLoad(baseUrl: string, spec: LoadSpec, opts: LoadOptions): Promise<LoadStats> {
  if (opts.warmupSeconds > 0)
    await guarded(once(baseUrl, spec, opts.connections, opts.warmupSeconds), opts.warmupSeconds);
  const r = await guarded(once(baseUrl, spec, opts.connections, opts.seconds), opts.seconds);
  const statusCodes: Record<string, number> = {};
  for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) statusCodes[code] = Number(v.count);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    p999: r.latency.p99_9,
    requests: r.requests.total,
    seconds: r.duration,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statusCodes,
  };
}

/**
 * Sends exactly `amount` requests (e.g. to fill the simulator with stored connections), bounded by
 * `maxSeconds`. Returns how many answered 2xx.
 */
export async function sendAmount(
  baseUrl: string,
  spec: LoadSpec,
  amount: number,
  connections: number,
  maxSeconds = 300,
): Promise<number> {
  const r = await guarded(
    autocannon({
      url: baseUrl,
      connections,
      amount,
      timeout: 10,
      requests: [
        {
          method: spec.method,
          path: spec.path,
          headers: spec.headers ?? {},
          ...(spec.body !== undefined ? { body: spec.body } : {}),
        },
      ],
      ...(spec.freshIds ? { idReplacement: true } : {}),
    }),
    maxSeconds,
  );
  return r['2xx'];
}

async function guarded(instance: ReturnType<typeof autocannon>, seconds: number) {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        instance.stop();
        reject(new Error(`load run did not end within ${seconds + 30} s`));
      },
      (seconds + 30) * 1000,
    );
  });
  try {
    return await Promise.race([Promise.resolve(instance), guard]);
  } finally {
    clearTimeout(timer);
  }
}
