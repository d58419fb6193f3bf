import type { Requirement } from './types.js';

/** Rules of the search area, each quoting its spec sentence. */
export const SEARCH: Requirement[] = [];
