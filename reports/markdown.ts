/** A short Markdown summary: a table per suite, then each failure with its spec sentence. */
import type { RunResult } from '../src/model.js';
import { markdownText } from './inert.js';
import { bySuite, countsLine } from './summary.js';

export function markdownReport(result: RunResult): string {
  const lines = [
    `# Conformance: ${markdownText(`${result.target.baseUrl}${result.target.prefix}`)}${result.target.embeddedReference ? ' (embedded reference)' : ''}`,
    '',
    `${countsLine(result.counts)}; ${result.requests.total} requests in ${(result.durationMs / 1000).toFixed(1)} s.`,
    '',
  ];
  if (result.stopped) lines.push(`> **Run stopped (${result.stopped.reason}):** ${markdownText(result.stopped.message)}`, '');
  for (const n of result.notices) lines.push(`> **Note:** ${markdownText(n)}`, '');
  lines.push('| suite | pass | fail | warn | skip | info |', '|---|---:|---:|---:|---:|---:|');
  for (const s of bySuite(result)) {
    const c = s.counts;
    lines.push(`| ${s.suite} | ${c.pass} | ${c.fail} | ${c.warn} | ${c.skip} | ${c.info} |`);
  }
  const failures = result.checks.filter((c) => c.outcome === 'fail');
  if (failures.length) {
    lines.push('', '## Failures', '');
    for (const f of failures) {
      lines.push(`### \`${f.id}\` (${f.requirement.level})`, '', `> ${f.requirement.sentence}`, `> — document ${f.requirement.doc}, ${f.requirement.section}`, '', markdownText(f.message), '');
    }
  }
  const { restored, leaks } = result.restoration;
  if (restored || leaks.length) {
    lines.push('', '## Changes to the target', '', `${restored} changes undone.`);
    if (leaks.length) lines.push('', 'Not restored:', '', ...leaks.map((l) => `- ${markdownText(l.change)}: ${markdownText(l.reason)}`));
  }
  return `${lines.join('\n')}\n`;
}
