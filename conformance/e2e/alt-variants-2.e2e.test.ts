import { altVariantSuite } from './alt-variant-suite.ts';

altVariantSuite(1);
