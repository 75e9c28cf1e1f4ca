// The shared-sandbox suites' Redis: the benchmark's starter (one helper for tests and bench).
export { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../bench/lib/redis-server.ts';
