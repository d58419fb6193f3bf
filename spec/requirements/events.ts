import type { Requirement } from './types.js';

/** Rules of the events area, each quoting its spec sentence. */
export const EVENTS: Requirement[] = [];
