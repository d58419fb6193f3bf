import type { Requirement } from './types.js';

/** Rules of the notifications area, each quoting its spec sentence. */
export const NOTIFICATIONS: Requirement[] = [];
