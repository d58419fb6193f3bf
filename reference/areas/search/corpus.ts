/**
 * The searchable corpus, built once per reference from the world's repositories: issues and pull
 * requests, labels, milestones, code files and commits. Deterministic: timestamps are relative to
 * the reference's start, variety comes from a fixed integer mix, never from randomness.
 */
import { LIMITS } from '../../../spec/limits.js';
import { sha1 } from '../../sha1.js';
import type { AreaInit } from '../../area.js';
import type { Repo } from '../../world.js';

export interface Label {
  id: number;
  repoId: number;
  name: string;
  color: string;
  description: string;
  isDefault: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface Milestone {
  id: number;
  repoId: number;
  number: number;
  title: string;
  description: string;
  state: 'open' | 'closed';
  creator: string;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  dueOn: number;
  openIssues: number;
  closedIssues: number;
}

export interface Issue {
  id: number;
  repoId: number;
  number: number;
  pull: boolean;
  title: string;
  body: string;
  user: string;
  assignee: string | null;
  labels: Label[];
  milestone: Milestone;
  state: 'open' | 'closed';
  stateReason: string;
  /** Comment bodies; the rendered `comments` is their count. */
  comments: string[];
  reactions: number;
  locked: boolean;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
}

export interface CodeFile {
  id: number;
  repoId: number;
  path: string;
  content: string;
  /** Git blob id of the content. */
  sha: string;
  branch: string;
  /** Commit the file is served at (the branch head). */
  ref: string;
  indexedAt: number;
}

export interface Commit {
  id: number;
  repoId: number;
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  author: string;
  /** Null for commits made through the web interface: the committer user object is then empty. */
  committer: string | null;
  authorDate: number;
  committerDate: number;
  branch: string;
  commentCount: number;
}

export interface RepoStats {
  stars: number;
  forks: number;
  updatedAt: number;
}

export interface Corpus {
  issues: Issue[];
  labels: Label[];
  code: CodeFile[];
  commits: Commit[];
  /** Public repositories only repository search sees: no other area's world holds them. */
  searchRepos: Repo[];
  repoStats: Map<number, RepoStats>;
}

export const DEFAULT_BRANCH = 'main';
/** The keyword every acme/widgets issue carries; the reference's profile names it as `search_keyword`. */
export const COMMON_KEYWORD = 'widget';
/** Found only in a file of 384 KB or more, so code search must not find it. */
export const LARGE_FILE_KEYWORD = 'hugefixturemarker';
/** Found only on a branch other than the default one, in a file and a commit message. */
export const OFF_BRANCH_KEYWORD = 'fluxcapacitor';
/** Enough widget issues in acme/widgets that total_count exceeds the reachable results. */
const WIDGET_ISSUES = LIMITS.search.reachableResults + 150;
/** Code files, commits and labels of acme/widgets, and search-only repositories, carrying the keyword: past the 1,000 reachable results of a search. */
const BULK = LIMITS.search.reachableResults + 10;

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const AUTHORS = ['mona', 'hubot', 'ada', 'grace', 'linus'];
const TOPICS = ['resize', 'render', 'theme', 'export', 'cache', 'locale', 'keyboard', 'tooltip', 'layout', 'scroll', 'drag', 'print', 'sync', 'upload', 'font'];
const TITLES: ((t: string) => string)[] = [
  (t) => `Widget ${t} fails on startup`,
  (t) => `Improve widget ${t} performance`,
  (t) => `Add a ${t} option to the widget panel`,
  (t) => `Document the widget ${t} settings`,
  (t) => `${t} regression in the widget toolbar`,
];
/** The platform's default labels (name, color, description). */
const DEFAULT_LABELS: [string, string, string][] = [
  ['bug', 'd73a4a', "Something isn't working"],
  ['documentation', '0075ca', 'Improvements or additions to documentation'],
  ['duplicate', 'cfd3d7', 'This issue or pull request already exists'],
  ['enhancement', 'a2eeef', 'New feature or request'],
  ['good first issue', '7057ff', 'Good for newcomers'],
  ['help wanted', '008672', 'Extra attention is needed'],
  ['invalid', 'e4e669', "This doesn't seem right"],
  ['question', 'd876e3', 'Further information is requested'],
  ['wontfix', 'ffffff', 'This will not be worked on'],
];
const CUSTOM_LABELS: Record<string, [string, string, string][]> = {
  'acme/widgets': [['widget-core', '0e8a16', 'Core widget engine'], ['area: widget ui', 'fbca04', 'Panels and toolbars']],
  'globex/gizmo': [['gizmo-adapter', '5319e7', 'The widget adapter for gizmos']],
};

/** Small issue sets of the other repositories: [title, body] pairs. */
const OTHER_ISSUES: Record<string, [string, string][]> = {
  'globex/gizmo': Array.from({ length: 24 }, (_, i) => [
    `Gizmo ${TOPICS[i % TOPICS.length]} ${i % 3 === 0 ? 'breaks the widget adapter' : 'needs tuning'}`,
    `Reported against gizmo ${i + 1}.`,
  ]),
  'acme/secret': Array.from({ length: 6 }, (_, i) => [`Secret widget plan ${i + 1}`, 'Confidential roadmap item.']),
  'acme/archive-2019': Array.from({ length: 4 }, (_, i) => [`Old widget experiment ${i + 1}`, 'Archived.']),
  'mona/dotfiles': Array.from({ length: 5 }, (_, i) => [`Shell alias for ${TOPICS[i]}`, 'Add a widget shortcut too.']),
  'hubot/private-notes': Array.from({ length: 3 }, (_, i) => [`Private widget note ${i + 1}`, 'Only hubot reads this.']),
};

/** [repository, path, content, branch] */
const CODE: [string, string, string, string?][] = [
  ['acme/widgets', 'README.md', '# Widgets\n\nWidgets for every occasion. Install the widget package and call createWidget().\n'],
  ['acme/widgets', 'src/widget.ts', "export function createWidget(name: string) {\n  return { name, kind: 'widget' };\n}\n"],
  ['acme/widgets', 'src/render.ts', "import { createWidget } from './widget.js';\n\nexport const renderWidget = (name: string) => `<div>${createWidget(name).name}</div>`;\n"],
  ['acme/widgets', 'test/widget.test.ts', "import { createWidget } from '../src/widget.js';\n\ntest('a widget has a name', () => createWidget('a'));\n"],
  ['acme/widgets', 'docs/guide.md', 'How to resize, render and theme your components.\n'],
  // Too large to be searchable ("only files smaller than 384 KB").
  ['acme/widgets', 'assets/huge-fixture.txt', `${LARGE_FILE_KEYWORD} widget\n${'x'.repeat(LIMITS.search.maxCodeFileBytes)}\n`],
  // Not on the default branch, so not searchable.
  ['acme/widgets', 'src/flux.ts', `export const flux = '${OFF_BRANCH_KEYWORD} widget';\n`, 'feature/flux'],
  ['acme/secret', 'plans.md', 'Secret widget roadmap for next year.\n'],
  ['acme/automation', '.workflow/ci.yml', 'steps:\n  - run: npm test # widget tests\n'],
  ['acme/plain', 'main.c', '/* plain widget in C */\nint main(void) { return 0; }\n'],
  ['globex/gizmo', 'src/gizmo.go', 'package gizmo\n\n// Adapter lets a gizmo act as a widget.\nfunc Adapter() {}\n'],
  ['globex/gizmo', 'README.md', '# Gizmo\n\nGizmos and gadgets.\n'],
  ['mona/dotfiles', '.bashrc', "alias widget='open -a Widgets'\n"],
  ['hubot/private-notes', 'notes.md', 'hubot widget notes\n'],
  // Enough matches of the keyword for code search to show its page cap of 100 and the 1,000 reachable results.
  ...Array.from({ length: BULK }, (_, n): [string, string, string] => ['acme/widgets', `examples/widget-${n + 1}.md`, `Example ${n + 1}: a widget in ${n + 1} lines.\n`]),
];

/** Git's blob name of CODE[i]'s content, made once per process (one file is 384 KB): every corpus has the same. */
const blobNames: string[] = [];
function blobName(i: number): string {
  const content = CODE[i]![2];
  return (blobNames[i] ??= sha1(`blob ${Buffer.byteLength(content)}\0${content}`));
}

/**
 * [repository, commit count, message template]. Most acme/widgets commits name the keyword twice, few
 * three times and few once, so a first page of 100 in either order shows the best-match order.
 */
const COMMITS: [string, number, (t: string, i: number) => string][] = [
  ['acme/widgets', BULK + 10, (t, i) => (i % 40 === 2 ? `Test widget ${t} against a nested widget and a widget stub` : i % 40 === 7 ? `Fix widget ${t}` : `${i % 4 ? 'Refactor' : 'Fix'} widget ${t} in the widget core`)],
  ['acme/secret', 3, (t) => `Secret widget plan: ${t}`],
  ['acme/plain', 2, (t) => `Plain ${t} changes`],
  ['globex/gizmo', 6, (t, i) => (i % 2 ? `gizmo: tune ${t}` : `gizmo: widget adapter ${t}`)],
  ['mona/dotfiles', 3, (t) => `dotfiles: ${t} alias`],
  ['hubot/private-notes', 2, (t) => `notes about the widget ${t}`],
];

/** A fixed integer mix: variety without randomness. */
function mix(n: number, salt: number): number {
  return Math.imul(n ^ Math.imul(salt + 1, 0x9e3779b9), 0x85ebca6b) >>> 0;
}

/** Zero to two distinct labels of the repository. */
function labelPick(list: readonly Label[], h: number): Label[] {
  if (!list.length) return [];
  const picked = new Set([list[h % list.length]!, list[(h >>> 5) % list.length]!]);
  return [...picked].slice(0, (h >>> 9) % 3);
}

/** Owner of the search-only repositories: a user of the world, outside every organization. */
const SEARCH_REPO_OWNER = 'linus';
/** Ids of the search-only repositories start here, clear of the world's. */
const SEARCH_REPO_IDS = 500_000;

/**
 * Repositories for repository search to show its page cap and the 1,000 reachable results. Most name
 * the keyword, a few in the description too and a few in the description only, so a first page in
 * either order shows the order; acme/widgets (name and description) stays among the best matches.
 */
function searchRepos(): Repo[] {
  return Array.from({ length: BULK }, (_, n): Repo => ({
    id: SEARCH_REPO_IDS + n, owner: SEARCH_REPO_OWNER, name: n % 50 === 25 ? `parts-kit-${n + 1}` : `widget-kit-${n + 1}`,
    private: false, description: n % 50 === 25 ? `Parts for a widget, set ${n + 1}` : n % 25 ? `Parts, set ${n + 1}` : `Widget parts, set ${n + 1}`,
    fork: false, archived: false, advancedSecurity: false, workflowAutomation: false, collaborators: [SEARCH_REPO_OWNER], watchers: [],
  }));
}

const fullName = (r: Repo) => `${r.owner}/${r.name}`;

export function buildCorpus(init: AreaInit): Corpus {
  const t0 = init.startedAt;
  const repos = init.world.liveRepos();
  const byName = new Map(repos.map((r) => [fullName(r), r]));
  const labels: Label[] = [];
  const repoLabels = new Map<number, Label[]>();
  for (const r of repos) {
    const defs = [...DEFAULT_LABELS.map((d) => [...d, true] as const), ...(CUSTOM_LABELS[fullName(r)] ?? []).map((d) => [...d, false] as const)];
    const list = defs.map(([name, color, description, isDefault], i): Label => ({
      id: r.id * 100 + i, repoId: r.id, name, color, description, isDefault,
      createdAt: t0 - (400 - i * 7) * DAY, updatedAt: t0 - (mix(r.id, i) % 300) * DAY,
    }));
    repoLabels.set(r.id, list);
    labels.push(...list);
  }
  // Labels for label search to show its page cap and the 1,000 reachable results (a few with the keyword in
  // both name and description, a few in the description only, so a first page in either order shows the
  // order); issues carry only the ones above.
  const labelled = byName.get('acme/widgets');
  if (labelled) {
    labels.push(...Array.from({ length: BULK }, (_, n): Label => ({
      id: labelled.id * 100_000 + n, repoId: labelled.id, name: n % 50 === 25 ? `area ${n + 1}` : `widget area ${n + 1}`, color: 'c5def5', description: n % 25 ? `Area ${n + 1}` : `Widgets of area ${n + 1}`, isDefault: false,
      createdAt: t0 - (300 - (n % 200)) * DAY, updatedAt: t0 - (mix(labelled.id, n) % 300) * DAY,
    })));
  }

  const issues: Issue[] = [];
  const milestonesOf = (r: Repo): [Milestone, Milestone] => {
    const m = (number: number, title: string, closed: boolean): Milestone => ({
      id: r.id * 10 + number, repoId: r.id, number, title, description: `Release ${title}`, state: closed ? 'closed' : 'open',
      creator: r.collaborators[0] ?? 'mona', createdAt: t0 - (500 - number * 100) * DAY, updatedAt: t0 - (60 - number * 20) * DAY,
      closedAt: closed ? t0 - (50 - number * 10) * DAY : null, dueOn: t0 + (number * 90 - 150) * DAY, openIssues: 0, closedIssues: 0,
    });
    // Both released: an open milestone's closed_at would be null, a value the spec does not state nullable.
    return [m(1, 'v1.0', true), m(2, 'v2.0', true)];
  };
  const addIssues = (r: Repo, entries: [string, string][], pullEvery: number) => {
    const milestones = milestonesOf(r);
    const repoLabelList = repoLabels.get(r.id) ?? [];
    entries.forEach(([title, body], i) => {
      const n = i + 1;
      const h = mix(r.id * 10_000 + n, 1);
      const closed = h % 3 === 0;
      const createdAt = t0 - (entries.length - i + 10) * 6 * HOUR;
      const updatedAt = Math.min(createdAt + (h % 900) * HOUR, t0 - 60_000);
      const commentCount = h % 9;
      const milestone = milestones[closed ? 0 : 1];
      if (closed) milestone.closedIssues++;
      else milestone.openIssues++;
      issues.push({
        id: r.id * 10_000 + n, repoId: r.id, number: n, pull: n % pullEvery === 0, title, body, user: AUTHORS[h % AUTHORS.length]!,
        assignee: h % 4 === 0 ? null : AUTHORS[(h >>> 3) % AUTHORS.length]!,
        labels: labelPick(repoLabelList, h),
        milestone, state: closed ? 'closed' : 'open',
        stateReason: closed ? (h % 2 ? 'not_planned' : 'completed') : 'reopened',
        comments: Array.from({ length: commentCount }, (_, c) => (c % 4 === 3 ? `Confirmed: the ${TOPICS[c]} regression again.` : `Comment ${c + 1} on #${n}.`)),
        reactions: (h >>> 11) % 25, locked: n % 50 === 0, createdAt, updatedAt, closedAt: closed ? updatedAt : null,
      });
    });
  };
  const widgets = byName.get('acme/widgets');
  if (widgets) {
    addIssues(widgets, Array.from({ length: WIDGET_ISSUES }, (_, i): [string, string] => {
      const topic = TOPICS[mix(i, 2) % TOPICS.length]!;
      const repeats = mix(i, 3) % 4;
      return [TITLES[i % TITLES.length]!(topic), `Steps: open a widget and try ${topic}.${' The widget stays broken.'.repeat(repeats)}`];
    }), 4);
  }
  for (const [name, entries] of Object.entries(OTHER_ISSUES)) {
    const r = byName.get(name);
    if (r) addIssues(r, entries, 3);
  }

  const code: CodeFile[] = [];
  CODE.forEach(([name, path, content, branch], i) => {
    const r = byName.get(name);
    if (!r) return;
    code.push({
      id: i + 1, repoId: r.id, path, content, branch: branch ?? DEFAULT_BRANCH, ref: sha1(`${name}@${branch ?? DEFAULT_BRANCH}`), indexedAt: t0 - (mix(i, 4) % 200) * HOUR,
      sha: blobName(i),
    });
  });

  const commits: Commit[] = [];
  for (const [name, count, message] of COMMITS) {
    const r = byName.get(name);
    if (!r) continue;
    let parent: string | undefined;
    for (let i = 0; i < count; i++) {
      const h = mix(r.id * 1000 + i, 5);
      const sha = sha1(`${name}:${i}`);
      const authorDate = t0 - (count - i) * 5 * HOUR - DAY;
      commits.push({
        id: commits.length + 1, repoId: r.id, sha, tree: sha1(`tree:${name}:${i}`), parents: parent ? [parent] : [],
        message: message(TOPICS[h % TOPICS.length]!, i), author: AUTHORS[h % AUTHORS.length]!, committer: i % 5 === 4 ? null : AUTHORS[(h >>> 4) % AUTHORS.length]!,
        authorDate, committerDate: authorDate + (h % 40) * HOUR, branch: DEFAULT_BRANCH, commentCount: h % 3,
      });
      parent = sha;
    }
  }
  if (widgets) {
    const sha = sha1('acme/widgets:feature/flux');
    commits.push({
      id: commits.length + 1, repoId: widgets.id, sha, tree: sha1(`tree:${sha}`), parents: [], message: `Try the ${OFF_BRANCH_KEYWORD} widget`,
      author: 'mona', committer: 'mona', authorDate: t0 - DAY, committerDate: t0 - DAY, branch: 'feature/flux', commentCount: 0,
    });
  }

  const extra = searchRepos();
  const repoStats = new Map([...repos, ...extra].map((r): [number, RepoStats] => [r.id, {
    stars: mix(r.id, 6) % 500, forks: mix(r.id, 7) % 90, updatedAt: t0 - (mix(r.id, 8) % 100) * DAY,
  }]));
  return { issues, labels, code, commits, searchRepos: extra, repoStats };
}
