import { describe } from 'vitest';
import { behaviourSuite } from './behaviour/index.ts';
import { httpTarget } from './harness.ts';

describe('behaviour over node:http', () => behaviourSuite(httpTarget));
