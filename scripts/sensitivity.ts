/**
 * The sensitivity matrix: for every named fault, a whole run (writes allowed) against the
 * reference started with that fault alone, and the checks that caught it. Slow (a run per
 * fault), so it is a script, not part of `npm test`: `npm run sensitivity`.
 */
import { FAULTS, KNOWN_ESCAPES } from '../reference/faults.js';
import { runConformance } from '../src/runner.js';

const escaped: string[] = [];
let unknownEscapes = 0;
for (const fault of FAULTS) {
  const r = await runConformance({ referenceFaults: [fault.id], allowWrites: true, exhaustRateLimit: true });
  const caught = r.checks.filter((c) => c.outcome === 'fail' || c.outcome === 'warn').map((c) => `${c.id}(${c.outcome})`);
  process.stdout.write(`${fault.id.padEnd(40)} ${caught.length ? caught.join(', ') : `NOT CAUGHT${r.stopped ? ` (run stopped: ${r.stopped.reason})` : ''}`}\n`);
  if (!caught.length && !KNOWN_ESCAPES[fault.id]) unknownEscapes++;
  if (!caught.length) escaped.push(`${fault.id} (${fault.requirement})${KNOWN_ESCAPES[fault.id] ? `: known, missing: ${KNOWN_ESCAPES[fault.id]}` : ''}`);
}
process.stdout.write(`\n${FAULTS.length - escaped.length} of ${FAULTS.length} faults caught by a whole run.\n`);
if (escaped.length) process.stdout.write(`Not caught:\n${escaped.map((e) => `  ${e}`).join('\n')}\n`);
// A fault caught nowhere that is not a known escape is a regression.
process.exitCode = unknownEscapes ? 1 : 0;
