/**
 * The validators the spec says an endpoint's answers carry: "Polling uses `ETag` and
 * `If-None-Match`" (events) and "Polling: responses carry `Last-Modified`" (notification reads).
 * Each is read off the requirement that states it and the endpoints that requirement governs, so
 * the endpoint lists live once, in spec/coverage/governs.ts. A 304 listed among an endpoint's
 * statuses (the searches, the alert reads) states no validator: the platform sends none on search.
 */
import { GOVERNS } from './coverage/governs.js';

export type ValidatorHeader = 'etag' | 'last-modified';

/** The requirement whose sentence states each validator. */
const STATED_BY: Readonly<Record<ValidatorHeader, string>> = { etag: 'cond.etag-quoted', 'last-modified': 'cond.last-modified-304' };

const STATED = new Map<string, ValidatorHeader[]>();
for (const [header, requirement] of Object.entries(STATED_BY) as [ValidatorHeader, string][]) {
  for (const endpoint of GOVERNS[requirement]!.endpoints) STATED.set(endpoint, [...STATED.get(endpoint) ?? [], header]);
}

/** The validator headers the spec states for a catalogue endpoint (none for an unknown one). */
export function statedValidators(endpointId: string | undefined): readonly ValidatorHeader[] {
  return (endpointId && STATED.get(endpointId)) || [];
}
