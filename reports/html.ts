/**
 * The HTML report: one self-contained page. The run is embedded once as JSON and rendered by the
 * inline script with DOM text nodes only, so nothing a target sent can become markup; a
 * Content-Security-Policy with the hashes of the inline style and script forbids every other
 * script and every network request.
 */
import { createHash } from 'node:crypto';
import { OUTCOMES, type ExchangeRecord, type RunResult } from '../core/model.js';
import type { Comparison } from './gate.js';
import { SCRIPT, STYLE } from './html-assets.js';
import { bySuite, requestsLine, stoppedHeading } from './summary.js';
import { KEPT_BODY_CHARS } from './transcripts.js';


interface PageBody {
  text: string;
  json: boolean;
  /** Characters cut off the end. */
  omitted: number;
  /** Whether report.json has the whole body (it has not when the reports cut it, see reports/transcripts.ts). */
  inReport: boolean;
}

/** Bodies are cut in the page as in a bounded report.json (the JSON ones pretty-printed), so the page stays small with `--transcripts all` too. */
function pageBody(body: unknown, cutBefore = 0): PageBody {
  // A body the reports cut is the start of its pretty-printed JSON, highlighted as such.
  const json = typeof body !== 'string' || (cutBefore > 0 && /^[[{]/.test(body));
  const text = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
  return { text: text.slice(0, KEPT_BODY_CHARS), json, omitted: Math.max(0, text.length - KEPT_BODY_CHARS) + cutBefore, inReport: !cutBefore };
}

function pageExchange(e: ExchangeRecord) {
  const { body: reqBody, bodyOmitted: reqOmitted, ...request } = e.request;
  const res = e.response;
  return {
    ...e,
    request: { ...request, ...(reqBody !== undefined ? { body: pageBody(reqBody, reqOmitted) } : {}) },
    ...(res ? { response: { status: res.status, headers: res.headers, ...(res.body !== undefined ? { body: pageBody(res.body, res.bodyOmitted) } : {}) } } : {}),
  };
}

/** What the page renders: the run as the other reports see it, with only the exchanges checks refer to. */
function pageData(result: RunResult, comparison?: Comparison) {
  const referenced = new Set(result.checks.flatMap((c) => c.exchanges));
  return {
    outcomes: OUTCOMES,
    target: result.target,
    startedAt: result.startedAt,
    durationMs: result.durationMs,
    counts: result.counts,
    requests: requestsLine(result.requests),
    suites: bySuite(result).map((s) => ({ suite: s.suite, counts: s.counts })),
    checks: result.checks,
    exchanges: result.transcript.filter((e) => referenced.has(e.id)).map(pageExchange),
    restoration: result.restoration,
    ...(result.stopped ? { stopped: { ...result.stopped, heading: stoppedHeading(result.stopped) } } : {}),
    notices: result.notices,
    ...(comparison ? { comparison } : {}),
  };
}

const cspHash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

export function htmlReport(result: RunResult, comparison?: Comparison): string {
  // Inside <script>, only "<" can end the element ("</script>", "<!--"); as \u003c it stays data.
  const data = JSON.stringify(pageData(result, comparison)).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspHash(STYLE)}; script-src ${cspHash(SCRIPT)}">
<title>Conformance report</title>
<style>${STYLE}</style>
</head>
<body>
<header id="top"></header>
<main>
<noscript><p>This report is drawn by JavaScript; the same run is in report.json.</p></noscript>
<section id="suites" aria-labelledby="suites-title"><h2 id="suites-title">Conformance by suite</h2></section>
<section id="checks" aria-labelledby="checks-title"><h2 id="checks-title">Checks</h2></section>
</main>
<script type="application/json" id="report-data">${data}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
