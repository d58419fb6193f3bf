/**
 * Fault coverage: which mapped units and which (requirement, endpoint) pairs a named fault of the
 * reference breaks. A unit has a fault when one breaks any requirement it maps to; a pair, when one
 * breaks its requirement on that endpoint (reference/faults.ts brokenEndpoints).
 */
import { GOVERNS } from '../spec/coverage/governs.js';
import { PAIRS_WITHOUT_FAULT, UNITS_WITHOUT_FAULT } from '../spec/coverage/unfaulted.js';
import { UNITS_BY_DOC } from '../spec/units/index.js';
import { brokenEndpoints, FAULTS } from '../reference/faults.js';

/** requirement -> governed endpoint -> ids of the faults breaking the pair (empty: none). */
export type FaultMatrix = Record<string, Record<string, string[]>>;

export function faultMatrix(): FaultMatrix {
  const matrix: FaultMatrix = Object.fromEntries(Object.entries(GOVERNS).map(([r, g]) => [r, Object.fromEntries(g.endpoints.map((e) => [e, [] as string[]]))]));
  for (const fault of FAULTS) for (const endpoint of brokenEndpoints(fault)) matrix[fault.requirement]![endpoint]!.push(fault.id);
  return matrix;
}

export const MAPPED_UNITS = [...UNITS_BY_DOC[1], ...UNITS_BY_DOC[2]].filter((u) => u.requirements?.length);

/** Mapped unit id -> ids of the faults breaking one of its requirements. */
export function unitFaults(): Map<string, string[]> {
  return new Map(MAPPED_UNITS.map((u) => [u.id, FAULTS.filter((f) => u.requirements!.includes(f.requirement)).map((f) => f.id)]));
}

/** Mapped units and governed pairs with no fault and in neither ratchet list. */
export function unlistedWithoutFault(matrix: FaultMatrix = faultMatrix()): string[] {
  const units = [...unitFaults()].filter(([u, f]) => !f.length && !(u in UNITS_WITHOUT_FAULT)).map(([u]) => `unit ${u}`);
  const pairs = Object.entries(matrix).flatMap(([r, row]) => Object.entries(row)
    .filter(([e, f]) => !f.length && !PAIRS_WITHOUT_FAULT[r]?.endpoints.includes(e)).map(([e]) => `${r} x ${e}`));
  return [...units, ...pairs];
}

/** Ratchet entries that name no mapped unit or governed pair, or one a fault now breaks (the lists only shrink). */
export function staleFaultRatchet(matrix: FaultMatrix = faultMatrix()): string[] {
  const faultsOf = unitFaults();
  const units = Object.keys(UNITS_WITHOUT_FAULT).flatMap((u) => {
    const f = faultsOf.get(u);
    return !f ? [`UNITS_WITHOUT_FAULT: ${u} is no mapped unit`] : f.length ? [`UNITS_WITHOUT_FAULT: ${u} is broken by ${f.join(', ')}`] : [];
  });
  const pairs = Object.entries(PAIRS_WITHOUT_FAULT).flatMap(([r, { endpoints }]) => endpoints.flatMap((e) => {
    const f = matrix[r]?.[e];
    return !f ? [`PAIRS_WITHOUT_FAULT: ${r} does not govern ${e}`] : f.length ? [`PAIRS_WITHOUT_FAULT: ${r} x ${e} is broken by ${f.join(', ')}`] : [];
  }));
  return [...units, ...pairs];
}
