import { unnamedSuite } from './unnamed-suite.ts';
import { MISBEHAVING_3 } from './unnamed3-misbehaving.ts';
import { RECEIVERS_3 } from './unnamed3-receivers.ts';
import { WELL_BEHAVED_3 } from './unnamed3-well-behaved.ts';

// The third round of clients nobody named elsewhere: other HTTP stacks and habits than rounds 1 and 2
// (pipelining, a forward proxy, chunked and cut uploads, hedging, a circuit breaker, a key pool...).
// Long waits are the sandbox clock advanced, never slept (unnamed-suite.ts says how they are run and judged).
unnamedSuite('round 3', { wellBehaved: WELL_BEHAVED_3, misbehaving: MISBEHAVING_3, receivers: RECEIVERS_3 });
