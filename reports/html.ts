/**
 * The HTML report: one self-contained page. The run is embedded once as JSON and rendered by the
 * inline script with DOM text nodes only, so nothing a target sent can become markup; a
 * Content-Security-Policy with the hashes of the inline style and script forbids every other
 * script and every network request.
 */
import { createHash } from 'node:crypto';
import { OUTCOMES, type ExchangeRecord, type RunResult } from '../src/model.js';
import type { Comparison } from './gate.js';
import { SCRIPT, STYLE } from './html-assets.js';
import { bySuite } from './summary.js';

/** Bodies longer than this (pretty-printed) are cut in the page, which stays small; report.json keeps them whole. */
const BODY_LIMIT = 20_000;

interface PageBody {
  text: string;
  json: boolean;
  /** Characters cut off the end. */
  omitted: number;
}

function pageBody(body: unknown): PageBody {
  const json = typeof body !== 'string';
  const text = json ? JSON.stringify(body, null, 2) : body;
  return { text: text.slice(0, BODY_LIMIT), json, omitted: Math.max(0, text.length - BODY_LIMIT) };
}

function pageExchange(e: ExchangeRecord) {
  const { body: reqBody, ...request } = e.request;
  return {
    ...e,
    request: { ...request, ...(reqBody !== undefined ? { body: pageBody(reqBody) } : {}) },
    ...(e.response ? { response: { status: e.response.status, headers: e.response.headers, ...(e.response.body !== undefined ? { body: pageBody(e.response.body) } : {}) } } : {}),
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
    requests: result.requests.total,
    suites: bySuite(result).map((s) => ({ suite: s.suite, counts: s.counts })),
    checks: result.checks,
    exchanges: result.transcript.filter((e) => referenced.has(e.id)).map(pageExchange),
    restoration: result.restoration,
    ...(result.stopped ? { stopped: result.stopped } : {}),
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
