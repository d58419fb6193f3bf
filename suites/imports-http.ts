/** Requests the import checks share: starting an import (journaled for deletion) and following its course. */
import type { Reply } from '../core/client.js';
import type { CheckContext } from '../core/suite.js';
import { IMPORT_RESTING } from '../spec/vocabulary.js';

export interface ImportRecord {
  status: string;
  commit_count?: number;
  percent?: number;
  push_percent?: number;
  failed_step?: string;
  project_choices?: Record<string, unknown>[];
  has_large_files?: boolean;
  large_files_count?: number;
  large_files_size?: number;
  vcs?: string | null;
}

/** Bound on "eventually": polls and seconds. A course not finished within it is inconclusive, never a failure. */
const MAX_POLLS = 40;
const MAX_WAIT_MS = 60_000;

export const importPath = (t: CheckContext, repo = t.resources.import_repo!) => `/repos/${repo}/import`;

export function url(t: CheckContext, course: string): string {
  const u = t.resources.import_urls?.[course];
  if (!u) return t.skip('missing-resource', `the profile names no import_urls.${course}`);
  return u;
}

const importChange = (repo: string) => `import into ${repo}`;

/** Deleting the import in a repository: gone already counts. */
const deleteImport = (t: CheckContext, repo: string) => [{ method: 'DELETE', path: importPath(t, repo), ok: [204, 404] }];

/** Journals the import in a repository for deletion at the end of the run. */
export function journalImport(t: CheckContext, repo = t.resources.import_repo!): void {
  t.journal.record(importChange(repo), deleteImport(t, repo));
}

/** Sends a PUT that starts an import, journaled first for deletion at the end of the run; a start refused is settled as not made. */
export const putImport = (t: CheckContext, put: () => Promise<Reply>, repo = t.resources.import_repo!): Promise<Reply> =>
  t.journal.journaled(importChange(repo), deleteImport(t, repo), put, (r) => r.status === 201);

/**
 * Whether the run started an import in the repository: a start succeeds only where no import is, so
 * whatever import the repository holds since is the run's own, deleted at the end.
 */
export const startedImport = (t: CheckContext, repo = t.resources.import_repo!) => t.journal.recorded(importChange(repo));

/** Starts an import from nothing (deleting any left over), journaled for deletion at the end. */
export async function start(t: CheckContext, body: Record<string, unknown>, repo = t.resources.import_repo!): Promise<Reply> {
  const path = importPath(t, repo);
  const existing = await t.request({ path });
  if (existing.status === 503) return t.skip('feature-retired', 'the source import interface answers 503 (retired)');
  // Only a 404 says there is none: a read refused to this caller may hide one that a PUT would meet.
  if (existing.status !== 404) await t.request({ method: 'DELETE', path });
  const r = await putImport(t, () => t.request({ method: 'PUT', path, body }), repo);
  if (r.status === 503) return t.skip('feature-retired', 'the source import interface answers 503 (retired)');
  return r;
}

/** Polls GET /import until it rests (or `until` holds), returning every record seen in order. */
export async function follow(t: CheckContext, until: (r: ImportRecord) => boolean = (r) => IMPORT_RESTING.includes(r.status)): Promise<ImportRecord[]> {
  const seen: ImportRecord[] = [];
  const deadline = Date.now() + MAX_WAIT_MS;
  for (let poll = 0; poll < MAX_POLLS && Date.now() < deadline; poll++) {
    const r = await t.request({ path: importPath(t) });
    if (!t.expectStatus(r, [200], 'GET /import while following the import')) return seen;
    const record = t.body<ImportRecord>(r);
    if (!record) return seen;
    const last = seen.at(-1);
    seen.push(record);
    if (until(record)) return seen;
    // Progress on a real server takes time: wait only when nothing moved since the last poll.
    if (last && last.status === record.status && last.percent === record.percent && last.push_percent === record.push_percent) await t.sleep(1000);
  }
  return t.skip('inconclusive', `the import did not settle within ${MAX_POLLS} polls or ${MAX_WAIT_MS / 1000} s; last status ${seen.at(-1)?.status}`);
}

export const course = (records: ImportRecord[]) => records.map((r) => r.status).filter((s, i, a) => i === 0 || a[i - 1] !== s);
