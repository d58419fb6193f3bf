import type { Requirement } from './types.js';

/** Rules of the imports area, each quoting its spec sentence. */
export const IMPORTS: Requirement[] = [];
