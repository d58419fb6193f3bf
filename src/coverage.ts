/**
 * Rule x endpoint coverage: which (requirement, endpoint) pairs a check covers. A pair is covered
 * when a check of the requirement (or of one it is enforced `via`) requested that governed endpoint
 * in a whole run against the embedded reference; which endpoint a request reached is the
 * catalogue's own matcher's answer.
 */
import { matchEndpoint } from '../spec/catalogue.js';
import { GOVERNS } from '../spec/coverage/governs.js';
import { KNOWN_UNCOVERED, PAIR_REASONS, type PairReason } from '../spec/coverage/exemptions.js';
import type { ExchangeRecord } from '../core/model.js';
import { runConformance } from './runner.js';

/** requirement -> governed endpoint -> ids of the checks covering the pair (empty: uncovered). */
export type Matrix = Record<string, Record<string, string[]>>;

export interface ObservedCheck {
  check: string;
  requirement: string;
  /** Catalogue endpoint ids the check requested. */
  endpoints: string[];
}

export const MATRIX_FILE = ['spec', 'coverage', 'matrix.json'] as const;

function endpointOf(exchange: ExchangeRecord | undefined, prefix: string): string | undefined {
  if (!exchange) return undefined;
  const path = new URL(exchange.request.url).pathname;
  return matchEndpoint(exchange.request.method, path.startsWith(prefix) ? path.slice(prefix.length) : path)?.endpoint.id;
}

/** Runs every check (the rate-limit exhaustion too) against the embedded reference; skipped checks cover nothing. */
export async function observeChecks(): Promise<ObservedCheck[]> {
  const run = await runConformance({ exhaustRateLimit: true });
  const byId = new Map(run.transcript.map((x) => [x.id, x]));
  return run.checks.filter((c) => c.outcome !== 'skip').map((c) => ({
    check: c.id,
    requirement: c.requirement.id,
    endpoints: [...new Set(c.exchanges.map((id) => endpointOf(byId.get(id), run.target.prefix)).filter((e): e is string => !!e))].sort(),
  }));
}

export function buildMatrix(observed: readonly ObservedCheck[]): Matrix {
  const matrix: Matrix = {};
  for (const [requirement, governs] of Object.entries(GOVERNS)) {
    const enforcing = new Set([requirement, ...(governs.via ?? [])]);
    matrix[requirement] = Object.fromEntries(governs.endpoints.map((endpoint) => [endpoint,
      observed.filter((c) => enforcing.has(c.requirement) && c.endpoints.includes(endpoint)).map((c) => c.check).sort()]));
  }
  return matrix;
}

export type PairStatus =
  | { status: 'covered'; checks: string[] }
  | { status: 'reasoned'; reason: PairReason }
  | { status: 'known-uncovered' }
  | { status: 'uncovered' };

export interface Pair {
  requirement: string;
  endpoint: string;
  state: PairStatus;
}

export function classify(matrix: Matrix): Pair[] {
  return Object.entries(matrix).flatMap(([requirement, row]) => Object.entries(row).map(([endpoint, checks]): Pair => {
    const reason = PAIR_REASONS[requirement]?.[endpoint];
    const state: PairStatus = checks.length ? { status: 'covered', checks }
      : reason ? { status: 'reasoned', reason }
        : KNOWN_UNCOVERED[requirement]?.includes(endpoint) ? { status: 'known-uncovered' } : { status: 'uncovered' };
    return { requirement, endpoint, state };
  }));
}

/** Entries of the exemption lists that no longer describe an uncovered governed pair (the lists only shrink). */
export function staleExemptions(matrix: Matrix): string[] {
  const stale: string[] = [];
  const lists: [string, Readonly<Record<string, unknown>>][] = [
    ['PAIR_REASONS', PAIR_REASONS],
    ['KNOWN_UNCOVERED', Object.fromEntries(Object.entries(KNOWN_UNCOVERED).map(([r, eps]) => [r, Object.fromEntries(eps.map((e) => [e, true]))]))],
  ];
  for (const [name, list] of lists) {
    for (const [requirement, endpoints] of Object.entries(list)) {
      for (const endpoint of Object.keys(endpoints as object)) {
        const checks = matrix[requirement]?.[endpoint];
        if (!checks) stale.push(`${name}: ${requirement} does not govern ${endpoint}`);
        else if (checks.length) stale.push(`${name}: ${requirement} x ${endpoint} is covered by ${checks.join(', ')}`);
      }
    }
  }
  return stale;
}
