/**
 * The terminal summary, compact: failures and warnings in full, every suite as one line of counts
 * (passes and skips are counted, not listed; `--verbose` adds a line per check as it finishes).
 */
import type { CheckResult, RunResult } from '../core/model.js';
import { comparisonLines, type Comparison } from './gate.js';
import { terminalText } from '../core/inert.js';
import { bySuite, countsLine, requestsLine } from './summary.js';

/** Findings listed per check before "… N more". */
const SHOWN_FINDINGS = 5;

export function consoleSummary(result: RunResult, comparison: Comparison, strict: boolean): string {
  const out: string[] = [];
  const shown = result.checks.filter((c) => c.outcome === 'fail').concat(result.checks.filter((c) => c.outcome === 'warn'));
  for (const c of shown) out.push(describeCheck(c, c.findings, result), '');
  // --strict reports undescribed fields as information on checks that otherwise pass: without these lines they would be seen only in the files.
  const undescribed = strict ? result.checks.filter((c) => c.outcome !== 'fail' && c.outcome !== 'warn' && c.findings.some((f) => f.path)) : [];
  for (const c of undescribed) out.push(describeCheck(c, c.findings.filter((f) => f.path), result, 'INFO'), '');
  for (const s of bySuite(result)) out.push(terminalText(`${s.suite.padEnd(16)} ${countsLine(s.counts)}`));
  const { restored, leaks } = result.restoration;
  if (restored || leaks.length) out.push('', terminalText(`changes undone: ${restored}; not restored: ${leaks.length ? leaks.map((l) => `${l.change} (${l.reason})`).join('; ') : 'none'}`));
  const compared = comparisonLines(comparison);
  if (compared.length) out.push('', ...compared.map(terminalText));
  if (result.checks.length) out.push('', `${countsLine(result.counts)} — ${requestsLine(result.requests)}, ${(result.durationMs / 1000).toFixed(1)} s`);
  return out.length ? `${out.join('\n')}\n` : '';
}

/** A check in full: its title, the spec sentence, findings and the last request. */
export function describeCheck(check: CheckResult, findings: CheckResult['findings'], result: RunResult, label = check.outcome.toUpperCase()): string {
  const lines = [`${label} ${check.id} [${check.requirement.level}] ${check.title}`, `  spec: "${check.requirement.sentence}" (document ${check.requirement.doc}, ${check.requirement.section})`];
  for (const f of findings.slice(0, SHOWN_FINDINGS)) lines.push(`  - ${f.path ? `${f.path}: ` : ''}${f.message}`);
  if (findings.length > SHOWN_FINDINGS) lines.push(`  - … ${findings.length - SHOWN_FINDINGS} more`);
  const last = result.transcript.find((e) => e.id === check.exchanges.at(-1));
  if (last) lines.push(`  request: ${last.request.method} ${last.request.url} -> ${last.response?.status ?? last.error}`);
  return lines.map(terminalText).join('\n');
}

/** One line per finished check, for `--verbose`. */
export function progressLine(check: CheckResult, index: number, total: number): string {
  return terminalText(`[${String(index + 1).padStart(String(total).length)}/${total}] ${check.outcome.toUpperCase().padEnd(4)} ${check.id}`);
}
