/**
 * The ratchet of rules nobody has written a fault for: mapped units no named fault of the reference
 * breaks, and governed (requirement, endpoint) pairs none breaks, each with why. The fault-coverage
 * test fails for a unit or pair without a fault that is missing here, and for an entry a fault now
 * breaks, so the lists only shrink (see `npm run coverage`).
 */

/** Mapped unit id -> why no fault breaks it yet. */
export const UNITS_WITHOUT_FAULT: Readonly<Record<string, string>> = {
  'd2.service.imports-retired': 'missing: a fault answering the retired interface with something other than 503 (reference/areas/imports.ts and the retired mode)',
};

export interface FaultlessPairs {
  endpoints: readonly string[];
  why: string;
}

/** requirement -> governed endpoints no fault breaks yet, and why. */
export const PAIRS_WITHOUT_FAULT: Readonly<Record<string, FaultlessPairs>> = {
  'versioning.unshown-behaviour': { endpoints: ['events.public'], why: 'the behaviour is not shown, so no answer breaks it' },
  'imports.retired-503': {
    endpoints: ['imports.get', 'imports.start', 'imports.update', 'imports.cancel', 'imports.authors', 'imports.author-update', 'imports.large-files', 'imports.lfs'],
    why: 'missing: a fault answering the retired interface with something other than 503; a 503 cannot be brought about on a live target',
  },
  'permissions.imports-token-kinds': {
    endpoints: ['imports.get', 'imports.start', 'imports.update', 'imports.cancel', 'imports.authors', 'imports.author-update', 'imports.large-files', 'imports.lfs'],
    why: 'a MAY: the document admits classic tokens only and also states what fine-grained ones need, so neither answer breaks it; permissions.imports-contents carries the enforceable half',
  },
};
