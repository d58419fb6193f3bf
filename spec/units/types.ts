/**
 * A normative unit of a spec document: one sentence, table row or list item (or a verbatim excerpt
 * of one) that states something a server does, and what answers for it.
 */

/**
 * Why a unit cannot be checked over HTTP. A reason is a decision written per unit, with its own
 * explanation, never a default.
 */
export const REASON_KINDS = {
  'not-shown': 'the spec says the behaviour is not shown',
  'background-timing': 'the effect happens on a clock a run cannot wait for (minutes, hours, days)',
  'needs-second-organization': 'observing it takes a second organization or account set up for it',
  'client-obligation': 'it binds the client, not the server',
  descriptive: 'it names or introduces things and states no behaviour',
  'out-of-scope-endpoint': 'it depends on endpoints whose behaviour the documents do not show',
  'not-inducible': 'its condition is one a client cannot bring about (server load, maintenance, spam detection, a search timeout)',
  deployment: 'it describes how an installation is deployed; the profile supplies it',
} as const;

export type ReasonKind = keyof typeof REASON_KINDS;

export interface Unit {
  /** Stable id: document, section slug, content slug (never a running number). */
  id: string;
  /**
   * The spec's words, verbatim (whitespace aside), long enough to occur once in its document.
   * Passages joined with ` … ` span from the first to the last (a long field list or matrix row).
   */
  text: string;
  /** Requirements (spec/requirements) that state and enforce what the unit says. */
  requirements?: readonly string[];
  /** Why no requirement can enforce it over HTTP. */
  reason?: { kind: ReasonKind; why: string };
  /** With a `not-shown` reason: requirements whose checks record what the server does there, as info only. */
  observedBy?: readonly string[];
}

/** A unit enforced by requirements. */
export const unit = (id: string, text: string, ...requirements: string[]): Unit => ({ id, text, requirements });

/** A unit that cannot be checked over HTTP, and why. */
export const unchecked = (id: string, text: string, kind: ReasonKind, why: string): Unit => ({ id, text, reason: { kind, why } });

/** A unit whose behaviour is not shown, so nothing enforces it; the requirements' checks record it as info. */
export const observed = (id: string, text: string, why: string, ...observedBy: string[]): Unit => ({ id, text, reason: { kind: 'not-shown', why }, observedBy });

/** A unit stating server behaviour no requirement enforces yet; spec/units/gaps.ts says what is missing. */
export const gap = (id: string, text: string): Unit => ({ id, text });
