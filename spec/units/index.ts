/** Both documents' units, the gap ratchet and the reason vocabulary. */
import { DOC1_UNITS } from './doc1.js';
import { DOC2_UNITS } from './doc2.js';
import type { Unit } from './types.js';

export { GAPS, type Gap } from './gaps.js';
export { REASON_KINDS, type ReasonKind, type Unit } from './types.js';

export const UNITS_BY_DOC: Readonly<Record<1 | 2, readonly Unit[]>> = { 1: DOC1_UNITS, 2: DOC2_UNITS };
