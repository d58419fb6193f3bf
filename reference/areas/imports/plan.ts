/**
 * The deterministic course of an import. The vcs_url picks a scenario; a plan is the list of
 * frames the import walks through, one frame per GET /import, so every state can be observed.
 */
import { createHash } from 'node:crypto';
import { LIMITS } from '../../../spec/limits.js';
import type { ImportStatus } from '../../../spec/vocabulary.js';

export type Scenario = 'needs-auth' | 'auth-failed' | 'multiple' | 'nothing' | 'broken' | 'large' | 'ok';

/** Substrings of vcs_url that select a scenario, checked in this order; anything else imports cleanly. */
export const SCENARIOS: readonly Scenario[] = ['needs-auth', 'auth-failed', 'multiple', 'nothing', 'broken', 'large'];

export function scenarioOf(vcsUrl: string): Scenario {
  return SCENARIOS.find((s) => vcsUrl.includes(s)) ?? 'ok';
}

/** What detection reports for a URL. */
export function detectVcs(vcsUrl: string): string {
  if (/svn/i.test(vcsUrl)) return 'subversion';
  if (/hg|mercurial/i.test(vcsUrl)) return 'mercurial';
  if (/tfs|tfvc/i.test(vcsUrl)) return 'tfvc';
  return 'git';
}

export interface ProjectChoice {
  vcs: string;
  tfvc_project: string;
  human_name: string;
}

export const PROJECT_CHOICES: readonly ProjectChoice[] = [
  { vcs: 'tfvc', tfvc_project: 'alpha', human_name: 'alpha (tfs)' },
  { vcs: 'tfvc', tfvc_project: 'beta', human_name: 'beta (tfs)' },
];

export interface Frame {
  status: ImportStatus;
  /** importing only */
  percent?: number;
  /** pushing only */
  pushPercent?: number;
  /** Commits have been fetched: authors and large files are known from here on. */
  fetched: boolean;
}

export const TOTAL_COMMITS = 120;
const IMPORT_PERCENTS = [0, 50, 100];
const PUSH_PERCENTS = [50, 100];

export interface PlanInput {
  scenario: Scenario;
  /** Where the (re)start begins. */
  from: 'detecting' | 'importing';
  /** Credentials were supplied. */
  credentials: boolean;
  /** A project choice was made (detection_found_multiple answered). */
  chosen: boolean;
  fault: (id: string) => boolean;
}

export function plan(input: PlanInput): Frame[] {
  const { scenario, credentials, fault } = input;
  const frames: Frame[] = [];
  if (input.from === 'detecting') {
    frames.push({ status: 'detecting', fetched: false });
    if (scenario === 'needs-auth' && !credentials) return [...frames, { status: 'detection_needs_auth', fetched: false }];
    if (scenario === 'nothing') return [...frames, { status: 'detection_found_nothing', fetched: false }];
    if (scenario === 'multiple' && !input.chosen) return [...frames, { status: 'detection_found_multiple', fetched: false }];
  }
  const importing = (percent: number, fetched = true): Frame => ({ status: 'importing', fetched, percent: fault('imports-percent-out-of-range') ? percent * 10 : percent });
  if (!credentials && (scenario === 'needs-auth' || scenario === 'auth-failed')) {
    return [...frames, importing(0, false), { status: 'auth_failed', fetched: false }];
  }
  if (scenario === 'broken') return [...frames, ...IMPORT_PERCENTS.slice(0, 2).map((p) => importing(p)), { status: 'error', fetched: true }];
  // The fault leaves out the importing step after detection (a restart from importing keeps it).
  if (!(input.from === 'detecting' && fault('imports-detection-skips-importing'))) frames.push(...IMPORT_PERCENTS.map((p) => importing(p)));
  if (!fault('imports-skip-mapping')) frames.push({ status: 'mapping', fetched: true });
  frames.push(...PUSH_PERCENTS.map((p): Frame => ({ status: 'pushing', fetched: true, pushPercent: fault('imports-push-percent-out-of-range') ? p * 10 : p })));
  frames.push({ status: 'complete', fetched: true });
  return frames;
}

export interface SourceFile {
  ref_name: string;
  path: string;
  oid: string;
  size: number;
}

const oid = (path: string) => createHash('sha256').update(path).digest('hex');
const MIB = 1024 * 1024;

/** Files of the `large` scenario's source: two over the spec's 100MB, one under it. */
const LARGE_SOURCE: readonly SourceFile[] = [
  { ref_name: 'refs/heads/master', path: 'assets/intro.mp4', oid: oid('assets/intro.mp4'), size: 512 * MIB },
  { ref_name: 'refs/heads/master', path: 'data/dump.sql', oid: oid('data/dump.sql'), size: 1536 * MIB },
  { ref_name: 'refs/heads/master', path: 'docs/manual.pdf', oid: oid('docs/manual.pdf'), size: 50 * MIB },
];

/** "files over 100MB found during importing" */
export function largeFiles(scenario: Scenario, fault: (id: string) => boolean): SourceFile[] {
  if (scenario !== 'large') return [];
  return LARGE_SOURCE.filter((f) => f.size > LIMITS.imports.largeFileBytes || fault('imports-large-file-under-limit'));
}
