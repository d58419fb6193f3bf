/** The deterministic code-scanning alerts every reference starts with, dated relative to its start. */
import { DISMISSED_REASONS, type AlertState } from '../../../spec/vocabulary.js';
import { sha1 } from '../../sha1.js';
import type { AreaInit } from '../../area.js';
import type { Repo } from '../../world.js';

export const DEFAULT_REF = 'refs/heads/main';

export interface Rule {
  id: string;
  name: string;
  severity: 'note' | 'warning' | 'error';
  securitySeverityLevel: 'low' | 'medium' | 'high' | 'critical' | null;
  tags: string[];
  description: string;
  fullDescription: string;
  help: string;
  helpUri: string;
}

export interface Tool {
  name: string;
  guid: string | null;
  version: string;
}

export interface Instance {
  ref: string;
  analysisKey: string;
  category: string;
  environment: string;
  /** Where the alert stands on this ref; a dismissed alert shows dismissed everywhere. */
  state: 'open' | 'fixed';
  commitSha: string;
  message: string;
  location: { path: string; startLine: number; endLine: number; startColumn: number; endColumn: number };
  classifications: string[];
}

export interface Alert {
  repoId: number;
  number: number;
  createdAt: number;
  updatedAt: number;
  state: AlertState;
  fixedAt: number | null;
  /** Login of the dismisser; null when nobody (or an app installation) dismissed it. */
  dismissedBy: string | null;
  dismissedAt: number | null;
  /** A string rather than DismissedReason: the `alerts-reason-outside-enum` fault stores anything. */
  dismissedReason: string | null;
  rule: Rule;
  tool: Tool;
  /** Default-branch instance first when there is one. */
  instances: Instance[];
}

/** One tool without a guid (as CodeQL reports) and one with. */
export const TOOLS: readonly Tool[] = [
  { name: 'CodeQL', guid: null, version: '2.15.3' },
  { name: 'Semgrep', guid: '4b5e8f0a-52c1-4c8e-9d27-3f1a6b2c9e01', version: '1.50.0' },
];

const rule = (id: string, name: string, severity: Rule['severity'], level: Rule['securitySeverityLevel'], tags: string[], description: string): Rule => ({
  id, name, severity, securitySeverityLevel: level, tags, description,
  fullDescription: `${description}. Data flowing into this sink without validation can be abused.`,
  help: `# ${description}\n\nValidate or encode the data before it reaches the sink.`,
  helpUri: `https://docs.example.invalid/rules/${id}`,
});

export const RULES: readonly Rule[] = [
  rule('js/sql-injection', 'SqlInjection', 'error', 'critical', ['security', 'external/cwe/cwe-089'], 'Database query built from user-controlled sources'),
  rule('js/reflected-xss', 'ReflectedXss', 'error', 'high', ['security', 'external/cwe/cwe-079'], 'Reflected cross-site scripting'),
  rule('js/path-injection', 'TaintedPath', 'warning', 'medium', ['security', 'external/cwe/cwe-022'], 'Uncontrolled data used in path expression'),
  rule('js/insecure-randomness', 'InsecureRandomness', 'warning', 'low', ['security', 'external/cwe/cwe-338'], 'Insecure randomness'),
  rule('js/unused-local-variable', 'UnusedVariable', 'note', null, ['maintainability'], 'Unused variable, import, function or class'),
  rule('js/hardcoded-credentials', 'HardcodedCredentials', 'error', 'high', ['security', 'external/cwe/cwe-798'], 'Hard-coded credentials'),
];

/** How many alerts each repository starts with; acme/widgets has more default-branch alerts than the 100 cap. */
const ALERT_COUNTS: Record<string, number> = { 'acme/widgets': 130, 'acme/archive-2019': 5, 'acme/secret': 4, 'globex/gizmo': 6 };
const DISMISSERS = ['mona', 'grace'];
const FILES = ['src/app', 'src/lib/query', 'src/util/paths', 'src/server/routes'];
const HOUR = 3600_000;
const DAY = 24 * HOUR;

function instance(repo: Repo, i: number, ref: string, state: Instance['state'], r: Rule): Instance {
  const line = 10 + ((i * 13) % 200);
  return {
    ref, analysisKey: '.github/workflows/codeql.yml:analyze', category: '.github/workflows/codeql.yml:analyze/language:javascript',
    environment: '{"language":"javascript"}', state, commitSha: sha1(`${repo.owner}/${repo.name}:${i}:${ref}`),
    message: `${r.description} at line ${line}.`,
    location: { path: `${FILES[i % FILES.length]}.js`, startLine: line, endLine: line + (i % 3), startColumn: 1 + (i % 9), endColumn: 20 + (i % 11) },
    classifications: i % 6 === 0 ? ['test'] : [],
  };
}

function alertsOf(repo: Repo, count: number, startedAt: number): Alert[] {
  const alerts: Alert[] = [];
  for (let i = 1; i <= count; i++) {
    const r = RULES[(i + repo.id) % RULES.length]!;
    const state: AlertState = i % 5 === 0 ? 'dismissed' : i % 7 === 0 ? 'fixed' : 'open';
    const createdAt = startedAt - (count + 5 - i) * DAY;
    // Updates shuffle the order relative to creation, so sort=updated is observable.
    const updatedAt = createdAt + ((i * 17) % 23) * 5 * HOUR;
    const pullRef = `refs/pull/${(i % 4) + 1}/merge`;
    const onMain = i % 9 !== 0;
    const instances: Instance[] = [];
    if (onMain) instances.push(instance(repo, i, DEFAULT_REF, state === 'fixed' ? 'fixed' : 'open', r));
    if (!onMain || i % 4 === 0) instances.push(instance(repo, i, pullRef, 'open', r));
    alerts.push({
      repoId: repo.id, number: i, createdAt, updatedAt, state,
      fixedAt: state === 'fixed' ? updatedAt : null,
      dismissedBy: state === 'dismissed' ? DISMISSERS[i % DISMISSERS.length]! : null,
      dismissedAt: state === 'dismissed' ? updatedAt : null,
      dismissedReason: state === 'dismissed' ? DISMISSED_REASONS[i % DISMISSED_REASONS.length]! : null,
      rule: r, tool: TOOLS[i % 3 === 0 ? 1 : 0]!, instances,
    });
  }
  return alerts;
}

/** Alerts keyed by repository id. */
export function createCorpus(init: AreaInit): Map<number, Alert[]> {
  const corpus = new Map<number, Alert[]>();
  for (const [fullName, count] of Object.entries(ALERT_COUNTS)) {
    const [owner = '', name = ''] = fullName.split('/');
    const repo = init.world.repo(owner, name);
    if (repo) corpus.set(repo.id, alertsOf(repo, count, init.startedAt));
  }
  return corpus;
}
