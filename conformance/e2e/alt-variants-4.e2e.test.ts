import { altVariantSuite } from './alt-variant-suite.ts';

altVariantSuite(3);
