/**
 * The ratchet of rules nobody has written a fault for: mapped units no named fault of the reference
 * breaks, and governed (requirement, endpoint) pairs none breaks, each with why. The fault-coverage
 * test fails for a unit or pair without a fault that is missing here, and for an entry a fault now
 * breaks, so the lists only shrink (see `npm run coverage`).
 */

/** Mapped unit id -> why no fault breaks it yet. */
export const UNITS_WITHOUT_FAULT: Readonly<Record<string, string>> = {
};

export interface FaultlessPairs {
  endpoints: readonly string[];
  why: string;
}

/** requirement -> governed endpoints no fault breaks yet, and why. */
export const PAIRS_WITHOUT_FAULT: Readonly<Record<string, FaultlessPairs>> = {
  'versioning.unshown-behaviour': { endpoints: ['events.public'], why: 'the behaviour is not shown, so no answer breaks it' },
  'permissions.imports-token-kinds': {
    endpoints: ['imports.start', 'imports.update', 'imports.cancel', 'imports.author-update', 'imports.lfs'],
    why: 'missing: a fault refusing the classic token on the import writes; the probes start their import as the classic token, so under that fault nothing would be left to compare (permissions-imports-reads-refuse-classic breaks the reads)',
  },
};
