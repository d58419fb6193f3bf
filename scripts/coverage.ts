/**
 * `npm run coverage`: the rule x endpoint matrix as a table (per requirement, the endpoints it
 * governs and the checks covering each), then the counts of units and of pairs; the last three lines
 * are the summary. `npm run coverage -- --write` also rewrites spec/coverage/matrix.json, which a
 * test compares with a fresh run.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { UNITS_BY_DOC, GAPS, REASON_KINDS, type ReasonKind } from '../spec/units/index.js';
import { buildMatrix, classify, MATRIX_FILE, observeChecks, type Matrix, type Pair } from '../src/coverage.js';
import { packagePath } from '../src/paths.js';

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

export function unitSummary(): string {
  const units = [...UNITS_BY_DOC[1], ...UNITS_BY_DOC[2]];
  const mapped = units.filter((u) => u.requirements?.length).length;
  const kinds = new Map<ReasonKind, number>();
  for (const u of units) if (u.reason) kinds.set(u.reason.kind, (kinds.get(u.reason.kind) ?? 0) + 1);
  const reasoned = [...kinds.values()].reduce((a, b) => a + b, 0);
  const byKind = (Object.keys(REASON_KINDS) as ReasonKind[]).filter((k) => kinds.has(k)).map((k) => `${k} ${kinds.get(k)}`).join(', ');
  return `units: ${units.length} (document 1: ${UNITS_BY_DOC[1].length}, document 2: ${UNITS_BY_DOC[2].length}): `
    + `${mapped} mapped to requirements, ${reasoned} with a reason (${byKind}), ${GAPS.length} gaps`;
}

export function pairSummary(pairs: readonly Pair[]): string[] {
  const count = (s: Pair['state']['status']) => pairs.filter((p) => p.state.status === s).length;
  const requirements = new Set(pairs.map((p) => p.requirement));
  const enforced = new Set(pairs.filter((p) => p.state.status === 'covered').map((p) => p.requirement));
  return [
    `requirements: ${requirements.size} governing endpoints, ${enforced.size} with at least one covered pair`,
    `(requirement, endpoint) pairs: ${pairs.length}: ${count('covered')} covered, ${count('reasoned')} skipped with a reason, `
      + `${count('known-uncovered') + count('uncovered')} uncovered (${count('uncovered')} not in the known-uncovered list)`,
  ];
}

async function main(): Promise<void> {
  const matrix = buildMatrix(await observeChecks());
  if (process.argv.includes('--write')) writeFileSync(packagePath(...MATRIX_FILE), formatMatrix(matrix));
  const pairs = classify(matrix);
  const out: string[] = [];
  for (const requirement of Object.keys(matrix)) {
    const own = pairs.filter((p) => p.requirement === requirement);
    const covered = own.filter((p) => p.state.status === 'covered').length;
    out.push(`${requirement}  (${covered}/${own.length} endpoints covered)`);
    const width = Math.max(...own.map((p) => p.endpoint.length));
    for (const pair of own) out.push(`  ${pair.endpoint.padEnd(width)}  ${describe(pair)}`);
  }
  out.push('', unitSummary(), ...pairSummary(pairs));
  console.log(out.join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
