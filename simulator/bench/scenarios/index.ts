import { idempotencyMemoryScenario } from '../memory/idempotency-keys.ts';
import { streamMemoryScenario } from '../memory/stream-retention.ts';
import type { Scenario } from '../lib/types.ts';
import { capabilitiesScenario } from './capabilities.ts';
import { coldStartScenario } from './cold-start.ts';
import { conformanceScenario } from './conformance-run.ts';
import { connectionsNewScenario } from './connections-new.ts';
import { connectionsReplayScenario } from './connections-replay.ts';
import { connectorsScenario } from './connectors.ts';
import { installedPackageScenario } from './installed-package.ts';
import { mswScenario } from './msw-throughput.ts';
import { providersScenario } from './providers.ts';
import { redisStoreScenario } from './redis-store.ts';
import { catalogScalingScenario } from './scaling-catalog.ts';
import { connectionsScalingScenario } from './scaling-connections.ts';
import { sseScenario } from './sse-fanout.ts';

/**
 * Every scenario, in run order. A scenario whose feature is missing reports itself not available
 * (never a number), so features landing later light up here without edits.
 */
export const SCENARIOS: readonly Scenario[] = [
  providersScenario,
  connectorsScenario,
  capabilitiesScenario,
  connectionsNewScenario,
  connectionsReplayScenario,
  sseScenario,
  coldStartScenario,
  installedPackageScenario,
  conformanceScenario,
  mswScenario,
  idempotencyMemoryScenario,
  streamMemoryScenario,
  catalogScalingScenario,
  connectionsScalingScenario,
  redisStoreScenario,
];
