/**
 * Inert output: a target whose messages carry terminal escape sequences (colours, OSC 8 links, an
 * OSC 52 clipboard write), bidi overrides, a line break, and Markdown (links, images, HTML, a
 * heading, table pipes, a code fence) gets them shown, never obeyed: the console output holds no
 * control character, and summary.md and the CI step summary hold no live Markdown or HTML from it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../core/exit-codes.js';
import { json, startAlteredReference, type AlteredReference } from '../helpers/altered-reference.js';
import { runCli } from '../helpers/cli.js';

/** Only the target's text carries it (an OSC 52 payload), so the lines quoting the target can be told apart. */
const MARK = 'ZXZpbA';
const HOSTILE = [
  '\x1b[31mred\x1b[0m', '\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07', `\x1b]52;c;${MARK}==\x07`, '\x9b2J', '\u202egnp.exe',
  '[link](http://evil.example)', '![img](http://evil.example/i.png)', '<img src=x onerror=alert(1)>', 'www.evil.example', 'a|b',
  '\n# Heading', '\n```fence', '\n| forged | row |',
].join(' ');
/** Control characters a terminal or a Markdown renderer would act on. */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

let front: AlteredReference;
let run: { status: number | null; stdout: string; stderr: string };
let summary: string;
let stepSummary: string;
beforeAll(async () => {
  front = await startAlteredReference({
    instead: (req) => {
      if (req.url?.startsWith('/rate_limit')) return json(404, { message: HOSTILE });
      return req.url?.includes('/code-scanning/') ? json(404, { message: HOSTILE }) : undefined;
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'inert-'));
  writeFileSync(join(dir, 'profile.json'), JSON.stringify(front.profile));
  writeFileSync(join(dir, 'step-summary.md'), '');
  run = await runCli(['--profile', join(dir, 'profile.json'), '--suite', 'alerts', '--report-dir', join(dir, 'report')], { GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') }, 120_000);
  summary = readFileSync(join(dir, 'report', 'summary.md'), 'utf8');
  stepSummary = readFileSync(join(dir, 'step-summary.md'), 'utf8');
}, 150_000);
afterAll(() => front.close());

describe('a target sending escape sequences and Markdown in its messages', () => {
  it('fails checks that quote it (the text reaches the reports)', () => {
    expect(run.status).toBe(EXIT.checkFailed);
    expect(summary).toContain('click');
    expect(run.stdout).toContain('click');
    expect(run.stderr).toContain('click');
  });

  it('leaves no control character in the console output, and no line of its own', () => {
    for (const text of [run.stdout, run.stderr]) {
      for (const line of text.split('\n')) expect(line).not.toMatch(CONTROL);
      expect(text).not.toMatch(/^(# Heading|```fence|\| forged)/m);
      expect(text).toContain('\\u001b[31mred');
    }
  });

  it.each([['summary.md', () => summary], ['the CI step summary', () => stepSummary]])('leaves no live Markdown or HTML in %s', (_, text) => {
    const md = text();
    expect(md).toContain('\\\\u001b');
    for (const line of md.split('\n')) {
      expect(line).not.toMatch(CONTROL);
      if (line.startsWith('#')) expect(line).toMatch(/^(# Conformance: |## (Suites|Failures|Warnings|Changes to the target|Changes since the baseline|Known failures)$|### `[\w.-]+` \()/);
    }
    const quoting = md.split('\n').filter((line) => line.includes(MARK));
    expect(quoting.length).toBeGreaterThan(1);
    for (const line of quoting) {
      // Code spans show their text literally; what is left must have every mark escaped.
      const prose = line.replace(/(?<!\\)(`+)[^`][\s\S]*?(?<!`)\1(?!`)/g, '');
      expect(prose).not.toMatch(/(?<!\\)\|/);
      expect(prose).not.toMatch(/(?<!\\)<[a-z]/i);
      expect(prose).not.toMatch(/(?<!\\)\]\(/);
      expect(prose).not.toMatch(/(?<!\\)`/);
      // Nothing would autolink.
      expect(prose).not.toMatch(/[a-z]+:\/\/|www\./i);
    }
  });
});
