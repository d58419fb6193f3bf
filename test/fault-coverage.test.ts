import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { PAIRS_WITHOUT_FAULT, UNITS_WITHOUT_FAULT } from '../spec/coverage/unfaulted.js';
import { brokenEndpoints, FAULTS } from '../reference/faults.js';
import { faultMatrix, staleFaultRatchet, unitFaults, unlistedWithoutFault } from '../src/fault-coverage.js';

const ENDPOINT_IDS = new Set(CATALOGUE.map((e) => e.id));

describe('where each fault breaks its rule', () => {
  it('is on endpoints its requirement governs, and every endpoint a fault declares is one of them', () => {
    const bad = FAULTS.flatMap((f) => [
      ...(GOVERNS[f.requirement] ? [] : [`${f.id}: ${f.requirement} governs nothing`]),
      ...(brokenEndpoints(f).length ? [] : [`${f.id}: breaks its rule nowhere`]),
      ...(f.endpoints ?? []).filter((e) => !ENDPOINT_IDS.has(e) || !brokenEndpoints(f).includes(e)).map((e) => `${f.id}: ${e} is not governed by ${f.requirement}`),
    ]);
    expect(bad).toEqual([]);
  });

  it('is only where it is declared, within the governed endpoints', () => {
    const fault = { id: 'x', requirement: 'search.q-required', effect: '', endpoints: ['search.code', 'rate-limit.get'] };
    expect(brokenEndpoints(fault)).toEqual(['search.code']);
    expect(brokenEndpoints({ ...fault, endpoints: undefined })).toEqual(GOVERNS['search.q-required']!.endpoints);
  });

  it('of an area is within that area', () => {
    const areaFault = FAULTS.find((f) => f.id === 'notifications-no-poll-interval')!;
    expect(GOVERNS[areaFault.requirement]!.endpoints.some((e) => e.startsWith('events.'))).toBe(true);
    expect(brokenEndpoints(areaFault).every((e) => e.startsWith('notifications.'))).toBe(true);
  });
});

describe('fault coverage of units and of (requirement, endpoint) pairs', () => {
  const matrix = faultMatrix();

  it('credits a pair to each fault breaking its requirement there', () => {
    expect(matrix['ratelimit.endpoint-not-counted']).toEqual({ 'rate-limit.get': ['ratelimit-endpoint-counted'] });
    expect(matrix['auth.no-token-404-or-403']!['events.repo']).toEqual(['auth-private-repo-open']);
    expect(unitFaults().get('d1.user.fields')).toContain('schema-user-id-string');
  });

  it('leaves no mapped unit and no governed pair without a fault unless it is in spec/coverage/unfaulted.ts', () => {
    expect(unlistedWithoutFault(matrix)).toEqual([]);
  });

  it('says why for every entry of spec/coverage/unfaulted.ts', () => {
    const whys = [...Object.values(UNITS_WITHOUT_FAULT), ...Object.values(PAIRS_WITHOUT_FAULT).map((p) => p.why)];
    expect(whys.filter((why) => why.trim().length < 20)).toEqual([]);
  });

  it('keeps spec/coverage/unfaulted.ts to units and pairs no fault breaks, so it only shrinks', () => {
    expect(staleFaultRatchet(matrix)).toEqual([]);
  });
});
