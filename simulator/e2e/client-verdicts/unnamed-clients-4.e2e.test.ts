import { unnamedSuite } from './unnamed-suite.ts';
import { MISBEHAVING_4 } from './unnamed4-misbehaving.ts';
import { RECEIVERS_4 } from './unnamed4-receivers.ts';
import { WELL_BEHAVED_4 } from './unnamed4-well-behaved.ts';

// The fourth round of clients nobody named elsewhere: the retry and streaming defaults of widely used
// client libraries (urllib3, tenacity, go-retryablehttp, resilience4j, Polly, the AWS SDK, Google's,
// Stripe's, got, axios-retry, undici, a browser EventSource, k6, a Kafka-style consumer), each
// reproduced from its documentation in unnamed4-kit.ts. Long waits are the sandbox clock advanced, never slept.
unnamedSuite('round 4', { wellBehaved: WELL_BEHAVED_4, misbehaving: MISBEHAVING_4, receivers: RECEIVERS_4 });
