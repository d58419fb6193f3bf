import type { Requirement } from './types.js';

/** Rules of the code-scanning area, each quoting its spec sentence. */
export const CODE_SCANNING: Requirement[] = [];
