/**
 * The inline stylesheet and script of the HTML report (reports/html.ts). The script builds every
 * element with createElement and text nodes, never innerHTML: ids, messages, headers and bodies
 * come from the target and stay text.
 */

export const STYLE = `
:root {
  --bg: #f5f6f8; --panel: #fff; --text: #1f2328; --muted: #5f6b78; --line: #dfe3e8; --soft: #f1f3f5;
  --accent: #0b63ce;
  --pass: #1a7f37; --pass-bg: #dcf5e3; --fail: #c4232f; --fail-bg: #fde8e8; --warn: #8a5a00; --warn-bg: #fff3c4;
  --skip: #5b6672; --skip-bg: #e9edf1; --info: #0b63ce; --info-bg: #e0efff;
  --j-key: #0550ae; --j-str: #0a7a3d; --j-num: #9a4d00; --j-lit: #8250df;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0e1116; --panel: #161b22; --text: #e6edf3; --muted: #9198a1; --line: #30363d; --soft: #1f252d;
    --accent: #4c9bf5;
    --pass: #4ac26b; --pass-bg: #12301d; --fail: #f47067; --fail-bg: #3b1618; --warn: #d9a520; --warn-bg: #35290b;
    --skip: #9198a1; --skip-bg: #262c34; --info: #6cb6ff; --info-bg: #132c4a;
    --j-key: #79c0ff; --j-str: #7ee787; --j-num: #ffa657; --j-lit: #d2a8ff;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.5 var(--sans); }
header, main { max-width: 1180px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 28px; }
h1, h2, h3, h4 { margin: 0; line-height: 1.25; }
h2 { font-size: 17px; margin: 28px 0 12px; }
code, pre, .mono { font-family: var(--mono); font-size: 13px; }
button, input, select { font: inherit; color: inherit; }
.muted { color: var(--muted); }
.eyebrow { margin: 0; color: var(--muted); font-size: 12px; font-weight: 600; letter-spacing: .08em; text-transform: uppercase; }
.head-main { display: flex; justify-content: space-between; align-items: flex-end; gap: 24px; flex-wrap: wrap; }
.head-main h1 { font-size: 24px; margin: 4px 0 6px; word-break: break-all; }
.meta { margin: 0; color: var(--muted); }
.score { text-align: right; }
.score-value { display: block; font-size: 34px; font-weight: 700; line-height: 1; }
.score-label { color: var(--muted); font-size: 13px; }
.tiles { display: grid; grid-template-columns: repeat(5, 1fr); gap: 12px; margin-top: 20px; }
.tile { display: flex; flex-direction: column; align-items: flex-start; padding: 12px 16px; border: 1px solid var(--line); border-left: 4px solid var(--c); border-radius: 8px; background: var(--panel); cursor: pointer; text-align: left; }
.tile:hover { border-color: var(--c); }
.tile[aria-pressed="true"] { background: var(--c-bg); border-color: var(--c); }
.tile-n { font-size: 26px; font-weight: 700; color: var(--c); line-height: 1.1; }
.tile-label { color: var(--muted); font-size: 13px; }
.o-pass { --c: var(--pass); --c-bg: var(--pass-bg); }
.o-fail { --c: var(--fail); --c-bg: var(--fail-bg); }
.o-warn { --c: var(--warn); --c-bg: var(--warn-bg); }
.o-skip { --c: var(--skip); --c-bg: var(--skip-bg); }
.o-info { --c: var(--info); --c-bg: var(--info-bg); }
.notice { margin-top: 14px; padding: 12px 16px; border: 1px solid var(--line); border-left: 4px solid var(--c, var(--accent)); border-radius: 8px; background: var(--panel); }
.notice h3 { font-size: 14px; margin-bottom: 4px; }
.notice p, .notice ul { margin: 4px 0 0; }
.notice ul { padding-left: 20px; }
.idlist { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.idlist button { border: 1px solid var(--line); background: var(--soft); border-radius: 6px; padding: 1px 8px; cursor: pointer; font-family: var(--mono); font-size: 13px; }
table.suites { width: 100%; border-collapse: collapse; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
.suites th, .suites td { padding: 8px 14px; border-bottom: 1px solid var(--line); text-align: left; font-weight: normal; }
.suites thead th { color: var(--muted); font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .05em; background: var(--soft); }
.suites tbody tr:last-child > * { border-bottom: 0; }
.suites td.n, .suites th.n { text-align: right; font-variant-numeric: tabular-nums; width: 64px; }
.suites td.zero { color: var(--muted); }
.suites td.n.o-fail:not(.zero) { color: var(--fail); font-weight: 700; }
.link { border: 0; background: none; padding: 0; color: var(--accent); cursor: pointer; font-weight: 600; }
.link:hover { text-decoration: underline; }
.scorecell { display: flex; align-items: center; gap: 12px; min-width: 220px; }
.bar { flex: 1; display: flex; height: 8px; border-radius: 4px; background: var(--soft); overflow: hidden; }
.bar-pass { background: var(--pass); }
.bar-fail { background: var(--fail); }
.pct { width: 44px; text-align: right; font-variant-numeric: tabular-nums; font-weight: 600; }
.toolbar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 10px; align-items: center; padding: 10px 0; background: var(--bg); border-bottom: 1px solid var(--line); }
.segmented { display: inline-flex; border: 1px solid var(--line); border-radius: 8px; overflow: hidden; background: var(--panel); }
.segmented button { border: 0; border-right: 1px solid var(--line); background: none; padding: 6px 12px; cursor: pointer; }
.segmented button:last-child { border-right: 0; }
.segmented button[aria-pressed="true"] { background: var(--c-bg, var(--soft)); color: var(--c, var(--text)); font-weight: 600; }
.segmented .n { color: var(--muted); font-variant-numeric: tabular-nums; margin-left: 4px; }
.toolbar select, .toolbar input { border: 1px solid var(--line); border-radius: 8px; background: var(--panel); padding: 6px 10px; }
.toolbar input { flex: 1; min-width: 220px; }
.shown { color: var(--muted); font-size: 13px; margin: 10px 0; }
ol.rows { list-style: none; margin: 0 0 48px; padding: 0; display: grid; gap: 10px; }
.check { scroll-margin-top: 64px; background: var(--panel); border: 1px solid var(--line); border-left: 4px solid var(--c); border-radius: 8px; padding: 14px 18px; }
.check-head { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
.check-id { font-weight: 600; font-size: 14px; word-break: break-all; }
.pill { display: inline-block; min-width: 44px; text-align: center; padding: 1px 8px; border-radius: 999px; background: var(--c-bg); color: var(--c); font-size: 12px; font-weight: 700; text-transform: uppercase; letter-spacing: .04em; }
.level { padding: 0 6px; border: 1px solid var(--line); border-radius: 4px; font-size: 11px; font-weight: 700; letter-spacing: .05em; color: var(--muted); }
.level-must { color: var(--text); }
.mark { padding: 0 8px; border-radius: 999px; font-size: 12px; font-weight: 600; border: 1px solid currentColor; }
.mark-new-fail { color: var(--fail); }
.mark-new-pass { color: var(--pass); }
.mark-expected { color: var(--skip); }
.mark-unexpected-pass { color: var(--warn); }
.suite-tag, .dur { margin-left: auto; color: var(--muted); font-size: 13px; }
.suite-tag + .dur { margin-left: 0; }
.check-title { margin: 6px 0 0; font-weight: 600; }
.message { margin: 4px 0 0; }
.reason { font-family: var(--mono); font-size: 12px; background: var(--soft); border-radius: 4px; padding: 1px 6px; margin-right: 6px; }
.findings { margin: 6px 0 0; padding-left: 20px; }
.findings li { margin: 2px 0; }
.pointer { background: var(--soft); border-radius: 4px; padding: 0 5px; margin-right: 6px; }
.spec { margin: 10px 0 0; padding: 8px 14px; border-left: 3px solid var(--line); background: var(--soft); border-radius: 0 6px 6px 0; }
.spec p { margin: 0; font-family: Georgia, "Times New Roman", serif; font-size: 15px; }
.spec p::before { content: "\\201C"; }
.spec p::after { content: "\\201D"; }
.spec footer { margin-top: 4px; color: var(--muted); font-size: 12px; }
details.transcript { margin-top: 10px; }
details > summary { cursor: pointer; color: var(--accent); font-weight: 600; font-size: 14px; }
.exchange { margin: 8px 0 0 14px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
.exchange > summary { display: flex; flex-wrap: wrap; gap: 8px; align-items: baseline; padding: 6px 10px; color: var(--text); font-weight: normal; }
.method { font-family: var(--mono); font-weight: 700; font-size: 13px; }
.url { font-family: var(--mono); font-size: 13px; word-break: break-all; }
.status { font-family: var(--mono); font-weight: 700; font-size: 13px; }
.s2 { color: var(--pass); } .s3 { color: var(--info); } .s4, .s5, .s-err { color: var(--fail); }
.parts { border-top: 1px solid var(--line); }
.part { padding: 10px 12px; }
.part + .part { border-top: 1px dashed var(--line); }
.part h4 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin-bottom: 6px; }
table.headers { border-collapse: collapse; font-family: var(--mono); font-size: 12px; margin-bottom: 8px; width: 100%; }
.headers th, .headers td { text-align: left; vertical-align: top; padding: 1px 0; word-break: break-all; }
.headers th { color: var(--muted); font-weight: normal; padding-right: 16px; width: 1%; white-space: nowrap; }
pre.code { margin: 0; padding: 10px; background: var(--soft); border-radius: 6px; overflow: auto; max-height: 460px; white-space: pre-wrap; word-break: break-all; }
.j-key { color: var(--j-key); } .j-str { color: var(--j-str); } .j-num { color: var(--j-num); } .j-lit { color: var(--j-lit); font-weight: 600; }
.part .muted { margin: 0; font-size: 13px; }
.error { color: var(--fail); font-family: var(--mono); font-size: 13px; }
.empty { padding: 32px; text-align: center; color: var(--muted); border: 1px dashed var(--line); border-radius: 8px; }
@media (max-width: 760px) {
  .tiles { grid-template-columns: repeat(3, 1fr); }
  .score { text-align: left; }
  .suites th, .suites td { padding: 8px; }
  .scorecell { min-width: 110px; }
}
`;

export const SCRIPT = String.raw`
(() => {
  'use strict';
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const LABEL = { pass: 'Passed', fail: 'Failed', warn: 'Warnings', skip: 'Skipped', info: 'Info' };
  const RANK = { fail: 0, warn: 1, info: 2, skip: 3, pass: 4 };
  const exchanges = new Map(data.exchanges.map((e) => [e.id, e]));
  const cmp = data.comparison || { newlyFailing: [], newlyPassing: [], expectedFailures: [], unexpectedPasses: [] };
  const state = { outcome: 'all', suite: 'all', terms: [], order: 'failures' };

  /** An element with attributes and children; strings become text nodes, never markup. */
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') el.className = v; else el.setAttribute(k, String(v));
    }
    for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
    return el;
  }
  const seconds = (ms) => (ms / 1000).toFixed(1) + ' s';
  const percent = (c) => c.pass + c.fail ? Math.floor((c.pass * 100) / (c.pass + c.fail)) + '%' : 'n/a';
  function when(iso) {
    const d = new Date(iso);
    return isNaN(d.getTime()) ? iso : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  }

  // Header: target, time, counts (result.counts, as every other report) and what else the run says.
  const t = data.target;
  const target = t.baseUrl + t.prefix;
  document.title = 'Conformance: ' + target;
  const tiles = data.outcomes.map((o) => h('button', { type: 'button', class: 'tile o-' + o, 'data-outcome': o, title: 'Show only ' + LABEL[o].toLowerCase() },
    h('span', { class: 'tile-n', 'data-count': o }, data.counts[o]), h('span', { class: 'tile-label' }, LABEL[o])));
  const top = document.getElementById('top');
  top.append(
    h('div', { class: 'head-main' },
      h('div', {},
        h('p', { class: 'eyebrow' }, 'Conformance report'),
        h('h1', {}, target),
        h('p', { class: 'meta' }, (t.embeddedReference ? 'built-in reference · ' : '') + 'vendor ' + t.vendor + ' · started ' + when(data.startedAt)
          + ' · ' + seconds(data.durationMs) + ' · ' + data.requests + ' · ' + data.checks.length + ' checks')),
      h('div', { class: 'score' }, h('span', { class: 'score-value' }, percent(data.counts)), h('span', { class: 'score-label' }, 'of checks with a verdict passed'))),
    h('div', { class: 'tiles', role: 'group', 'aria-label': 'Counts' }, tiles));
  if (data.stopped) {
    top.append(h('div', { class: 'notice o-fail', role: 'alert' }, h('h3', {}, data.stopped.heading), h('p', {}, data.stopped.message)));
  }
  if (data.notices.length) top.append(h('div', { class: 'notice', id: 'setup-notices' }, h('h3', {}, 'Setup'), data.notices.map((n) => h('p', {}, n))));
  const idList = (ids) => h('div', { class: 'idlist' }, ids.map((id) => h('button', { type: 'button', 'data-search': id, title: 'Show this check' }, id)));
  const cmpParts = [];
  if (cmp.baseline) cmpParts.push(h('p', {}, 'Against baseline ', h('code', {}, cmp.baseline), ': ' + cmp.newlyFailing.length + ' newly failing, ' + cmp.newlyPassing.length + ' newly passing, ' + cmp.unchanged + ' unchanged.'));
  if (cmp.newlyFailing.length) cmpParts.push(h('p', {}, 'Newly failing:'), idList(cmp.newlyFailing));
  if (cmp.newlyPassing.length) cmpParts.push(h('p', {}, 'Newly passing:'), idList(cmp.newlyPassing));
  if (cmp.expectedFailures.length) cmpParts.push(h('p', {}, 'Expected failures:'), idList(cmp.expectedFailures));
  if (cmp.unexpectedPasses.length) cmpParts.push(h('p', {}, 'Expected to fail but passed (update the expectations file):'), idList(cmp.unexpectedPasses));
  if (cmpParts.length) top.append(h('div', { class: 'notice' + (cmp.newlyFailing.length ? ' o-fail' : ''), id: 'comparison' }, h('h3', {}, cmp.baseline ? 'Changes since the baseline' : 'Known failures'), cmpParts));
  const r = data.restoration;
  if (r.restored || r.leaks.length) {
    top.append(h('div', { class: 'notice' + (r.leaks.length ? ' o-warn' : ''), id: 'restoration' },
      h('h3', {}, 'Changes to the target'),
      h('p', {}, r.restored + ' changes undone; ' + (r.leaks.length ? r.leaks.length + ' not restored (the API offers no way back):' : 'nothing left changed.')),
      r.leaks.length ? h('ul', {}, r.leaks.map((l) => h('li', {}, l.change + ' — ' + l.reason))) : null));
  }

  // Conformance by suite: passed / (passed + failed), as a bar and a percentage.
  const bar = (c) => {
    const el = h('div', { class: 'bar', role: 'img', 'aria-label': c.pass + ' passed, ' + c.fail + ' failed' });
    const scored = c.pass + c.fail;
    if (scored) {
      const pass = h('span', { class: 'bar-pass' });
      const fail = h('span', { class: 'bar-fail' });
      pass.style.width = (c.pass * 100) / scored + '%';
      fail.style.width = (c.fail * 100) / scored + '%';
      el.append(pass, fail);
    }
    return el;
  };
  document.getElementById('suites').append(h('table', { class: 'suites' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Suite'), h('th', { scope: 'col' }, 'Conformance'),
      data.outcomes.map((o) => h('th', { scope: 'col', class: 'n' }, o)))),
    h('tbody', {}, data.suites.map((s) => h('tr', { 'data-suite': s.suite },
      h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link', 'data-suite-filter': s.suite, title: 'Show only this suite' }, s.suite)),
      h('td', {}, h('div', { class: 'scorecell' }, bar(s.counts), h('span', { class: 'pct' }, percent(s.counts)))),
      data.outcomes.map((o) => h('td', { class: 'n o-' + o + (s.counts[o] ? '' : ' zero'), 'data-count': o }, s.counts[o])))))));

  // Transcripts: drawn when first opened, so the page stays light however many exchanges there are.
  const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|\b(?:true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  function highlight(text) {
    const pre = h('pre', { class: 'code' });
    let last = 0;
    for (const m of text.matchAll(TOKEN)) {
      if (m.index > last) pre.append(text.slice(last, m.index));
      if (m[1] && m[2]) pre.append(h('span', { class: 'j-key' }, m[1]), m[2]);
      else pre.append(h('span', { class: m[1] ? 'j-str' : /^[tfn]/.test(m[0]) ? 'j-lit' : 'j-num' }, m[0]));
      last = m.index + m[0].length;
    }
    pre.append(text.slice(last));
    return pre;
  }
  function body(b) {
    if (!b) return h('p', { class: 'muted' }, 'no body');
    return h('div', {}, b.json ? highlight(b.text) : h('pre', { class: 'code' }, b.text),
      b.omitted ? h('p', { class: 'muted' }, '… ' + b.omitted.toLocaleString('en') + ' more characters' + (b.inReport ? '; the whole body is in report.json' : ' (--transcripts all keeps whole bodies)')) : null);
  }
  function headers(hs) {
    const names = Object.keys(hs || {});
    return names.length ? h('table', { class: 'headers' }, h('tbody', {}, names.map((n) => h('tr', {}, h('th', { scope: 'row' }, n), h('td', {}, hs[n]))))) : null;
  }
  /** Runs fill the first time the details element opens. */
  function lazy(details, fill) {
    const once = () => { if (details.open) { details.removeEventListener('toggle', once); fill(); } };
    details.addEventListener('toggle', once);
  }
  function exchange(id, open) {
    const e = exchanges.get(id);
    if (!e) return h('p', { class: 'muted' }, 'Exchange ' + id + ' is not in the transcript.');
    const res = e.response;
    const d = h('details', { class: 'exchange' }, h('summary', {},
      h('span', { class: 'method' }, e.request.method), h('span', { class: 'url' }, e.request.url), h('span', { 'aria-hidden': 'true' }, '→'),
      res ? h('span', { class: 'status s' + String(res.status).charAt(0) }, res.status) : h('span', { class: 'status s-err' }, 'no response'),
      h('span', { class: 'muted' }, e.durationMs + ' ms')));
    const fill = () => d.append(h('div', { class: 'parts' },
      h('section', { class: 'part' }, h('h4', {}, 'Request'), headers(e.request.headers), body(e.request.body)),
      h('section', { class: 'part' }, h('h4', {}, res ? 'Response ' + res.status : 'Response'),
        e.error ? h('p', { class: 'error' }, e.error) : null, res ? [headers(res.headers), body(res.body)] : null)));
    if (open) { d.open = true; fill(); } else lazy(d, fill);
    return d;
  }
  function transcript(c) {
    if (!c.exchanges.length) return null;
    // By default the reports keep only the exchanges of failing and warning checks (reports/transcripts.ts).
    if (!c.exchanges.some((id) => exchanges.has(id))) {
      return h('p', { class: 'muted transcript-omitted' }, c.exchanges.length + (c.exchanges.length === 1 ? ' exchange' : ' exchanges') + ', not kept in this report (--transcripts all keeps every exchange)');
    }
    const d = h('details', { class: 'transcript' }, h('summary', {}, 'Transcript · ' + c.exchanges.length + (c.exchanges.length === 1 ? ' exchange' : ' exchanges')));
    // The last exchange is the one the verdict is usually about: open it at once.
    lazy(d, () => c.exchanges.forEach((id, i) => d.append(exchange(id, i === c.exchanges.length - 1))));
    return d;
  }

  // One row per check.
  function marks(id) {
    return [
      cmp.newlyFailing.includes(id) && h('span', { class: 'mark mark-new-fail' }, 'new failure'),
      cmp.newlyPassing.includes(id) && h('span', { class: 'mark mark-new-pass' }, 'newly passing'),
      cmp.expectedFailures.includes(id) && h('span', { class: 'mark mark-expected' }, 'expected failure'),
      cmp.unexpectedPasses.includes(id) && h('span', { class: 'mark mark-unexpected-pass' }, 'expected to fail, passed'),
    ];
  }
  function row(c) {
    const q = c.requirement;
    // A finding that only repeats the message adds nothing.
    const findings = c.findings.filter((f) => f.path || f.message !== c.message);
    return h('li', { class: 'check o-' + c.outcome, 'data-id': c.id, 'data-outcome': c.outcome, 'data-suite': c.suite },
      h('div', { class: 'check-head' },
        h('span', { class: 'pill' }, c.outcome), h('code', { class: 'check-id' }, c.id),
        h('span', { class: 'level level-' + String(q.level).toLowerCase(), title: 'Requirement level' }, q.level), marks(c.id),
        h('span', { class: 'suite-tag' }, c.suite), h('span', { class: 'dur' }, c.durationMs + ' ms')),
      h('p', { class: 'check-title' }, c.title),
      h('p', { class: 'message' }, c.skipReason ? h('span', { class: 'reason' }, c.skipReason) : null, c.message),
      findings.length ? h('ul', { class: 'findings' }, findings.map((f) => h('li', {}, f.path ? h('code', { class: 'pointer' }, f.path) : null, f.message))) : null,
      h('blockquote', { class: 'spec' }, h('p', {}, q.sentence), h('footer', {}, 'Document ' + q.doc + ', ' + q.section + ' · requirement ', h('code', {}, q.id))),
      transcript(c));
  }
  const rows = data.checks.map((c, i) => ({
    check: c, index: i, el: row(c),
    text: [c.id, c.title, c.requirement.id, c.requirement.sentence, c.message, c.skipReason || '', c.findings.map((f) => (f.path || '') + ' ' + f.message)].flat().join('\n').toLowerCase(),
  }));

  // Filters: outcome, suite, search text (every word must occur), order.
  const outcomeButtons = ['all'].concat(data.outcomes).map((o) => h('button', { type: 'button', class: o === 'all' ? '' : 'o-' + o, 'data-outcome': o },
    o === 'all' ? 'All' : o, h('span', { class: 'n' }, o === 'all' ? data.checks.length : data.counts[o])));
  const suiteSelect = h('select', { 'aria-label': 'Suite' }, h('option', { value: 'all' }, 'All suites'), data.suites.map((s) => h('option', { value: s.suite }, s.suite)));
  const search = h('input', { type: 'search', 'aria-label': 'Search', placeholder: 'Search id, title, sentence, message  ( / )', title: 'Matches check id, title, requirement id, spec sentence, message and findings; every word must occur' });
  const orderSelect = h('select', { 'aria-label': 'Order' }, h('option', { value: 'failures' }, 'Failures first'), h('option', { value: 'run' }, 'Run order'));
  const shown = h('p', { class: 'shown', 'aria-live': 'polite' });
  const list = h('ol', { class: 'rows' });
  const empty = h('p', { class: 'empty', hidden: '' }, 'No check matches these filters.');
  document.getElementById('checks').append(
    h('div', { class: 'toolbar' }, h('div', { class: 'segmented', role: 'group', 'aria-label': 'Outcome' }, outcomeButtons), suiteSelect, search, orderSelect),
    shown, list, empty);

  function apply() {
    const sorted = rows.slice().sort((a, b) => (state.order === 'failures' ? RANK[a.check.outcome] - RANK[b.check.outcome] : 0) || a.index - b.index);
    let visible = 0;
    for (const r of sorted) {
      const ok = (state.outcome === 'all' || r.check.outcome === state.outcome) && (state.suite === 'all' || r.check.suite === state.suite)
        && state.terms.every((w) => r.text.includes(w));
      r.el.hidden = !ok;
      if (ok) visible++;
      list.append(r.el);
    }
    for (const b of outcomeButtons.concat(tiles)) b.setAttribute('aria-pressed', String(b.dataset.outcome === state.outcome));
    suiteSelect.value = state.suite;
    shown.textContent = 'Showing ' + visible + ' of ' + rows.length + ' checks';
    empty.hidden = visible > 0;
  }
  const setOutcome = (o) => { state.outcome = state.outcome === o && o !== 'all' ? 'all' : o; apply(); };
  for (const b of outcomeButtons.concat(tiles)) b.addEventListener('click', () => setOutcome(b.dataset.outcome));
  suiteSelect.addEventListener('change', () => { state.suite = suiteSelect.value; apply(); });
  const readSearch = () => { state.terms = search.value.toLowerCase().split(/\s+/).filter(Boolean); };
  search.addEventListener('input', () => { readSearch(); apply(); });
  orderSelect.addEventListener('change', () => { state.order = orderSelect.value; apply(); });
  document.addEventListener('click', (ev) => {
    const b = ev.target instanceof Element ? ev.target.closest('[data-suite-filter], [data-search]') : null;
    if (!b) return;
    if (b.dataset.suiteFilter) state.suite = b.dataset.suiteFilter;
    else { state.outcome = 'all'; state.suite = 'all'; search.value = b.dataset.search; readSearch(); }
    apply();
    document.getElementById('checks').scrollIntoView();
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === '/' && !(ev.target instanceof HTMLInputElement)) { ev.preventDefault(); search.focus(); }
  });
  apply();
})();
`;
