/**
 * (requirement, endpoint) pairs no check covers: those that cannot be checked, each with its reason,
 * and the ratchet of those nobody checks yet. The coverage test fails for an uncovered pair in
 * neither list and for a pair of either list that has become covered, so KNOWN_UNCOVERED only shrinks.
 */
import type { ReasonKind } from '../units/types.js';

export interface PairReason {
  kind: ReasonKind;
  why: string;
}

/** requirement -> endpoint -> why the pair cannot be checked over HTTP. */
export const PAIR_REASONS: Readonly<Record<string, Readonly<Record<string, PairReason>>>> = {
};

/** requirement -> governed endpoints that no check requests yet (the ratchet). */
export const KNOWN_UNCOVERED: Readonly<Record<string, readonly string[]>> = {
};
