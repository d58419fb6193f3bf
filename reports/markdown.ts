/** A short Markdown summary: counts, a table per suite, each failure and warning with its spec sentence, then changes and the comparison. */
import type { RunResult } from '../core/model.js';
import { comparisonLines, type Comparison } from './gate.js';
import { markdownText } from '../core/inert.js';
import { bySuite, countsLine, requestsLine, stoppedLine } from './summary.js';

export function markdownReport(result: RunResult, comparison?: Comparison): string {
  const lines = [
    `# Conformance: ${markdownText(`${result.target.baseUrl}${result.target.prefix}`)}${result.target.embeddedReference ? ' (embedded reference)' : ''}`,
    '',
    `${countsLine(result.counts)}; ${requestsLine(result.requests)} in ${(result.durationMs / 1000).toFixed(1)} s.`,
    '',
  ];
  if (result.stopped) lines.push(`> **${markdownText(stoppedLine(result.stopped))}**`, '');
  for (const n of result.notices) lines.push(`> **Note:** ${markdownText(n)}`, '');
  const suites = bySuite(result);
  if (suites.length) {
    lines.push('## Suites', '', '| suite | pass | fail | warn | skip | info |', '|---|---:|---:|---:|---:|---:|');
    for (const s of suites) lines.push(`| ${s.suite} | ${s.counts.pass} | ${s.counts.fail} | ${s.counts.warn} | ${s.counts.skip} | ${s.counts.info} |`);
    lines.push('');
  }
  for (const [outcome, heading] of [['fail', 'Failures'], ['warn', 'Warnings']] as const) {
    const shown = result.checks.filter((c) => c.outcome === outcome);
    if (!shown.length) continue;
    lines.push(`## ${heading}`, '');
    for (const f of shown) {
      lines.push(`### \`${f.id}\` (${f.requirement.level})`, '', `> ${f.requirement.sentence}`, `> — document ${f.requirement.doc}, ${f.requirement.section}`, '', markdownText(f.message), '');
    }
  }
  const { restored, leaks } = result.restoration;
  if (restored || leaks.length) {
    lines.push('## Changes to the target', '', `${restored} changes undone.`, '');
    if (leaks.length) lines.push('Not restored:', '', ...leaks.map((l) => `- ${markdownText(l.change)}: ${markdownText(l.reason)}`), '');
  }
  const compared = comparison ? comparisonLines(comparison) : [];
  if (compared.length) lines.push(comparison?.baseline ? '## Changes since the baseline' : '## Known failures', '', ...compared.map((l) => `- ${markdownText(l)}`), '');
  return `${lines.join('\n').trimEnd()}\n`;
}
