/**
 * A convention that governs every endpoint is broken one endpoint at a time, so each per-endpoint
 * check proves it notices on its own endpoint: `<fault>@<endpoint id>` (applied in server.ts) has
 * the effect of `<fault>` on that endpoint only. Generated for every governed endpoint the coverage
 * exemptions do not list, so a pair that becomes covered gains its fault.
 */
import { GOVERNS } from '../spec/coverage/governs.js';
import { KNOWN_UNCOVERED, PAIR_REASONS } from '../spec/coverage/exemptions.js';
import type { Fault } from './fault.js';

/** The convention faults that can be scoped to one endpoint. */
const SCOPABLE = new Set(['auth-token-scheme-refused', 'auth-invalid-403-first', 'errors-no-message', 'versioning-old-version-refused', 'versioning-v3-media-refused']);

export function perEndpointFaults(faults: readonly Fault[]): Fault[] {
  return faults.filter((f) => SCOPABLE.has(f.id)).flatMap((f) => (GOVERNS[f.requirement]?.endpoints ?? [])
    .filter((e) => !KNOWN_UNCOVERED[f.requirement]?.includes(e) && !PAIR_REASONS[f.requirement]?.[e])
    .map((e) => ({ id: `${f.id}@${e}`, requirement: f.requirement, effect: `On ${e} only: ${f.effect}` })));
}
