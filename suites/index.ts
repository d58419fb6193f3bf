/** Every suite, in run order. */
import type { Suite } from '../src/suite.js';
import { schemaSuite } from './schema.js';

export const SUITES: readonly Suite[] = [schemaSuite];
