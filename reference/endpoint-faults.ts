/**
 * A convention that governs every endpoint is broken one endpoint at a time, so each per-endpoint
 * check proves it notices on its own endpoint: `<fault>@<endpoint id>` (applied in server.ts) has
 * the effect of `<fault>` on that endpoint only. Generated for every governed endpoint the coverage
 * exemptions do not list, so a pair that becomes covered gains its fault.
 */
import { endpointById, type Endpoint } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { KNOWN_UNCOVERED, PAIR_REASONS } from '../spec/coverage/exemptions.js';
import type { Fault } from './fault.js';

const all = () => true;
/** The faults that can be scoped to one endpoint, and the endpoints where the fault has an effect. */
const SCOPABLE: Readonly<Record<string, (e: Endpoint) => boolean>> = {
  'auth-token-scheme-refused': all,
  'auth-bearer-scheme-refused': all,
  'auth-password-accepted': all,
  'auth-lockout-spares-valid-token': all,
  'auth-invalid-403-first': all,
  'errors-no-message': all,
  'versioning-old-version-refused': all,
  'versioning-v3-media-refused': all,
  'cond-etag-unquoted': all,
  'ratelimit-304-counted': all,
  'values-url-fields-objects': all,
  'events-no-poll-interval': (e) => e.area === 'events',
  'notifications-no-poll-interval': (e) => e.area === 'notifications',
  'ratelimit-core-not-counted': (e) => e.category === 'core',
  // Endpoints open to anyone (a private repository's events) refuse in their handler instead.
  'auth-no-token-admitted': (e) => e.tokens !== 'anonymous-ok',
};

export function perEndpointFaults(faults: readonly Fault[]): Fault[] {
  return faults.flatMap((f) => (GOVERNS[f.requirement]?.endpoints ?? [])
    .filter((e) => SCOPABLE[f.id]?.(endpointById(e)) && !KNOWN_UNCOVERED[f.requirement]?.includes(e) && !PAIR_REASONS[f.requirement]?.[e])
    .map((e) => ({ id: `${f.id}@${e}`, requirement: f.requirement, effect: `On ${e} only: ${f.effect}`, endpoints: [e] })));
}
