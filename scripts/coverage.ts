/**
 * `npm run coverage`: the rule x endpoint matrix as a table (per requirement, the endpoints it
 * governs, the checks covering each and the faults breaking each), then the counts of units and of
 * pairs, checked and broken by a fault; the last three lines are the summary. `npm run coverage -- --write` also rewrites spec/coverage/matrix.json, which a
 * test compares with a fresh run.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { UNITS_BY_DOC, GAPS, REASON_KINDS, type ReasonKind } from '../spec/units/index.js';
import { buildMatrix, classify, MATRIX_FILE, observeChecks, type Matrix, type Pair } from '../src/coverage.js';
import { faultMatrix, unitFaults, type FaultMatrix } from '../src/fault-coverage.js';
import { FAULTS } from '../reference/faults.js';
import { packagePath } from '../core/paths.js';

/** One requirement a line, so a change shows as a small diff. */
export function formatMatrix(matrix: Matrix): string {
  const lines = Object.entries(matrix).map(([requirement, row]) => `  ${JSON.stringify(requirement)}: ${JSON.stringify(row)}`);
  return `{\n${lines.join(',\n')}\n}\n`;
}

function describe(pair: Pair): string {
  switch (pair.state.status) {
    case 'covered': return pair.state.checks.join(', ');
    case 'reasoned': return `(${pair.state.reason.kind}) ${pair.state.reason.why}`;
    case 'known-uncovered': return 'uncovered (known: KNOWN_UNCOVERED)';
    case 'uncovered': return 'UNCOVERED (in no list)';
  }
}

export function unitSummary(faultsOfUnit: ReadonlyMap<string, readonly string[]> = unitFaults()): string {
  const units = [...UNITS_BY_DOC[1], ...UNITS_BY_DOC[2]];
  const withFault = [...faultsOfUnit.values()].filter((f) => f.length).length;
  const mapped = units.filter((u) => u.requirements?.length).length;
  const kinds = new Map<ReasonKind, number>();
  for (const u of units) if (u.reason) kinds.set(u.reason.kind, (kinds.get(u.reason.kind) ?? 0) + 1);
  const reasoned = [...kinds.values()].reduce((a, b) => a + b, 0);
  const byKind = (Object.keys(REASON_KINDS) as ReasonKind[]).filter((k) => kinds.has(k)).map((k) => `${k} ${kinds.get(k)}`).join(', ');
  return `units: ${units.length} (document 1: ${UNITS_BY_DOC[1].length}, document 2: ${UNITS_BY_DOC[2].length}): `
    + `${mapped} mapped to requirements (${withFault} broken by a fault), ${reasoned} with a reason (${byKind}), ${GAPS.length} gaps`;
}

export function pairSummary(pairs: readonly Pair[], faults: FaultMatrix = faultMatrix()): string[] {
  const count = (s: Pair['state']['status']) => pairs.filter((p) => p.state.status === s).length;
  const broken = pairs.filter((p) => faults[p.requirement]?.[p.endpoint]?.length).length;
  const requirements = new Set(pairs.map((p) => p.requirement));
  const enforced = new Set(pairs.filter((p) => p.state.status === 'covered').map((p) => p.requirement));
  return [
    `requirements: ${requirements.size} governing endpoints, ${enforced.size} with at least one covered pair; faults: ${FAULTS.length}`,
    `(requirement, endpoint) pairs: ${pairs.length}: ${count('covered')} covered, ${count('reasoned')} skipped with a reason, `
      + `${count('known-uncovered') + count('uncovered')} uncovered (${count('uncovered')} not in the known-uncovered list); ${broken} broken by a fault`,
  ];
}

async function main(): Promise<void> {
  const matrix = buildMatrix(await observeChecks());
  if (process.argv.includes('--write')) writeFileSync(packagePath(...MATRIX_FILE), formatMatrix(matrix));
  const pairs = classify(matrix);
  const faults = faultMatrix();
  const out: string[] = [];
  for (const requirement of Object.keys(matrix)) {
    const own = pairs.filter((p) => p.requirement === requirement);
    const covered = own.filter((p) => p.state.status === 'covered').length;
    out.push(`${requirement}  (${covered}/${own.length} endpoints covered)`);
    const width = Math.max(...own.map((p) => p.endpoint.length));
    for (const pair of own) {
      const breaking = faults[requirement]?.[pair.endpoint] ?? [];
      out.push(`  ${pair.endpoint.padEnd(width)}  ${describe(pair)}  | faults: ${breaking.length ? breaking.join(', ') : 'NONE'}`);
    }
  }
  const faultless = [...unitFaults()].filter(([, f]) => !f.length).map(([u]) => u);
  out.push('', `mapped units no fault breaks: ${faultless.length ? faultless.join(', ') : 'none'}`);
  out.push('', unitSummary(), ...pairSummary(pairs, faults));
  console.log(out.join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
