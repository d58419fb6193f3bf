/**
 * The ratchet of rules nobody has written a fault for: mapped units no named fault of the reference
 * breaks, and governed (requirement, endpoint) pairs none breaks, each with why. The fault-coverage
 * test fails for a unit or pair without a fault that is missing here, and for an entry a fault now
 * breaks, so the lists only shrink (see `npm run coverage`).
 */

/** Mapped unit id -> why no fault breaks it yet. */
export const UNITS_WITHOUT_FAULT: Readonly<Record<string, string>> = {
  'd1.versioning.unshown': 'the behaviour is not shown, so no answer breaks it: the requirement records what the server does',
  // Decided, not missing: the reference's retired mode (--imports-retired, 503 everywhere) is the sentence's
  // correct side, and test/suites/sensitivity.test.ts asserts the suite skips every import check there as
  // feature-retired, failing none. Its wrong side has no observable form.
  'd2.service.imports-retired': 'no answer breaks it observably: a 503 is the only sign of maintenance a client gets, so a server answering anything else while in maintenance cannot be told from one that is not in maintenance',
};

export interface FaultlessPairs {
  endpoints: readonly string[];
  why: string;
}

/** requirement -> governed endpoints no fault breaks yet, and why. */
export const PAIRS_WITHOUT_FAULT: Readonly<Record<string, FaultlessPairs>> = {
  'errors.not-found': {
    endpoints: ['search.labels'],
    why: 'missing: a fault answering a repository_id that names no repository with something other than 404 (reference/areas/search.ts)',
  },
  'versioning.unshown-behaviour': { endpoints: ['events.public'], why: 'the behaviour is not shown, so no answer breaks it' },
  'imports.retired-503': {
    endpoints: ['imports.get', 'imports.start', 'imports.update', 'imports.cancel', 'imports.authors', 'imports.author-update', 'imports.large-files', 'imports.lfs'],
    why: 'no answer breaks it observably: a 503 is the only sign of maintenance a client gets, so any other answer reads as the interface working (see d2.service.imports-retired); the pairs are also uncovered, for the not-inducible reason in PAIR_REASONS',
  },
  'permissions.imports-token-kinds': {
    endpoints: ['imports.start', 'imports.update', 'imports.cancel', 'imports.author-update', 'imports.lfs'],
    why: 'missing: a fault refusing the classic token on the import writes; the probes start their import as the classic token, so under that fault nothing would be left to compare (permissions-imports-reads-refuse-classic breaks the reads)',
  },
};
