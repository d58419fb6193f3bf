/**
 * JUnit XML, as CI systems read it: one testsuite per suite, one testcase per check (named by its
 * stable id), failures with the spec sentence and the request, skips with their reason, warnings
 * and information as properties.
 */
import type { CheckResult, RunResult } from '../core/model.js';
import { bySuite, stoppedLine } from './summary.js';

const escape = (s: string) => s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
  // XML 1.0 forbids most control characters even when escaped.
  .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
const seconds = (ms: number) => (ms / 1000).toFixed(3);

function detail(check: CheckResult, result: RunResult): string {
  const lines = [`spec: "${check.requirement.sentence}" (document ${check.requirement.doc}, ${check.requirement.section})`];
  for (const f of check.findings) lines.push(`${f.path ? `${f.path}: ` : ''}${f.message}`);
  for (const id of check.exchanges) {
    const e = result.transcript.find((x) => x.id === id);
    if (e) lines.push(`${e.request.method} ${e.request.url} -> ${e.response?.status ?? e.error}`);
  }
  return lines.join('\n');
}

function testcase(check: CheckResult, result: RunResult): string {
  const props = [
    ['requirement', check.requirement.id], ['level', check.requirement.level], ['outcome', check.outcome],
    ...(check.outcome === 'warn' || check.outcome === 'info' ? [[check.outcome, check.message]] : []),
  ].map(([k, v]) => `        <property name="${escape(k!)}" value="${escape(v!)}"/>`).join('\n');
  const body = check.outcome === 'fail'
    ? `      <failure message="${escape(check.message)}" type="${check.requirement.level}">${escape(detail(check, result))}</failure>\n`
    : check.outcome === 'skip' ? `      <skipped message="${escape(`${check.skipReason}: ${check.message}`)}"/>\n` : '';
  return `    <testcase classname="conformance.${escape(check.suite)}" name="${escape(check.id)}" time="${seconds(check.durationMs)}">\n`
    + `      <properties>\n${props}\n      </properties>\n${body}    </testcase>`;
}

export function junitReport(result: RunResult): string {
  const suites = bySuite(result).map((s) => {
    const time = s.checks.reduce((n, c) => n + c.durationMs, 0);
    return `  <testsuite name="${escape(s.suite)}" tests="${s.checks.length}" failures="${s.counts.fail}" errors="0" skipped="${s.counts.skip}" time="${seconds(time)}">\n`
      + `${s.checks.map((c) => testcase(c, result)).join('\n')}\n  </testsuite>`;
  });
  // A stopped run (broken setup, spent budget, Ctrl-C) is one error of the run itself, so CI shows it is incomplete.
  if (result.stopped) {
    suites.push(`  <testsuite name="run" tests="1" failures="0" errors="1" skipped="0" time="0.000">\n`
      + `    <testcase classname="conformance.run" name="run" time="0.000">\n      <error message="${escape(stoppedLine(result.stopped))}" type="${result.stopped.reason}"/>\n    </testcase>\n  </testsuite>`);
  }
  const c = result.counts;
  const errors = result.stopped ? 1 : 0;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="conformance" tests="${result.checks.length + errors}" failures="${c.fail}" errors="${errors}" skipped="${c.skip}" time="${seconds(result.durationMs)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
