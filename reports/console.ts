/** The terminal summary: grouped by suite, failures first, each with its spec sentence and request. */
import type { CheckResult, RunResult } from '../src/model.js';
import { terminalText } from './inert.js';
import { bySuite, countsLine } from './summary.js';

export function consoleSummary(result: RunResult): string {
  const out: string[] = [];
  const failures = result.checks.filter((c) => c.outcome === 'fail');
  for (const f of failures) out.push(describeFailure(f, result));
  if (failures.length) out.push('');
  for (const s of bySuite(result)) out.push(`${s.suite.padEnd(16)} ${countsLine(s.counts)}`);
  const { restored, leaks } = result.restoration;
  if (restored || leaks.length) out.push('', terminalText(`changes undone: ${restored}; not restored: ${leaks.length ? leaks.map((l) => `${l.change} (${l.reason})`).join('; ') : 'none'}`));
  out.push('', `${countsLine(result.counts)} — ${result.requests.total} requests, ${(result.durationMs / 1000).toFixed(1)} s`);
  return `${out.join('\n')}\n`;
}

function describeFailure(check: CheckResult, result: RunResult): string {
  const lines = [`FAIL ${check.id} [${check.requirement.level}] ${check.title}`, `  spec: "${check.requirement.sentence}" (document ${check.requirement.doc}, ${check.requirement.section})`];
  for (const f of check.findings.slice(0, 5)) lines.push(`  - ${f.path ? `${f.path}: ` : ''}${f.message}`);
  if (check.findings.length > 5) lines.push(`  - … ${check.findings.length - 5} more`);
  const last = result.transcript.find((e) => e.id === check.exchanges.at(-1));
  if (last) lines.push(`  request: ${last.request.method} ${last.request.url} -> ${last.response?.status ?? last.error}`);
  return lines.map(terminalText).join('\n');
}

/** One line per finished check, for the progress display. */
export function progressLine(check: CheckResult, index: number, total: number): string {
  return terminalText(`[${String(index + 1).padStart(String(total).length)}/${total}] ${check.outcome.toUpperCase().padEnd(4)} ${check.id}`);
}
