/** Document 2, "Import record" and "Import author": what the reference remembers and how it shows it. */
import { IMPORT_UNDETECTED, type ImportStatus } from '../../../spec/vocabulary.js';
import type { HandlerContext } from '../../http.js';
import type { Repo } from '../../world.js';
import { detectVcs, largeFiles, PROJECT_CHOICES, TOTAL_COMMITS, type Frame, type Scenario } from './plan.js';

export interface Author {
  id: number;
  remoteId: string;
  remoteName: string;
  email: string;
  name: string;
}

export interface ImportRecord {
  repo: Repo;
  vcsUrl: string | null;
  /** Given with PUT or picked from project_choices; otherwise detected once detection ends. */
  vcs: string | null;
  scenario: Scenario;
  /** Kept only to authenticate against the source; never shown. */
  credentials: { username?: string; password?: string } | null;
  chosen: boolean;
  useLfs: string;
  frames: Frame[];
  step: number;
  authors: Author[];
}

const STATUS_TEXT: Record<ImportStatus, string> = {
  detecting: 'Detecting source',
  importing: 'Importing...',
  mapping: 'Rewriting history',
  pushing: 'Pushing to the repository',
  complete: 'Done',
  auth_failed: 'Authentication failed: supply vcs_username and vcs_password',
  error: 'Import failed: contact support',
  detection_needs_auth: 'Credentials are required to detect the source',
  detection_found_nothing: 'No source repository found at the URL',
  detection_found_multiple: 'Several projects found at the URL: choose one',
};

const GB = 1024 ** 3;

export const frameOf = (rec: ImportRecord): Frame => rec.frames[rec.step]!;

/** Authors become known once commits have been fetched. */
export const visibleAuthors = (rec: ImportRecord): Author[] => (frameOf(rec).fetched ? rec.authors : []);

export function visibleLargeFiles(ctx: HandlerContext, rec: ImportRecord) {
  return frameOf(rec).fetched ? largeFiles(rec.scenario, ctx.fault) : [];
}

export function renderImport(ctx: HandlerContext, rec: ImportRecord): Record<string, unknown> {
  const frame = frameOf(rec);
  const { status } = frame;
  const url = `${ctx.apiBase}/repos/${rec.repo.owner}/${rec.repo.name}`;
  const large = visibleLargeFiles(ctx, rec);
  const vcs = rec.vcs ?? (IMPORT_UNDETECTED.includes(status) || rec.vcsUrl === null || ctx.fault('imports-detected-vcs-null') ? null : detectVcs(rec.vcsUrl));
  const counted = ctx.fault('imports-has-large-files-false') ? [] : large;
  return {
    vcs,
    vcs_url: rec.vcsUrl,
    status,
    // The fault leaves an error without its message: status_text empty, no error_message.
    status_text: status === 'error' && ctx.fault('imports-error-no-message') ? '' : STATUS_TEXT[status],
    use_lfs: rec.useLfs,
    has_large_files: ctx.fault('schema-import-has-large-files-string') ? String(counted.length > 0) : counted.length > 0,
    large_files_size: Math.round(counted.reduce((sum, f) => sum + f.size, 0) / (ctx.fault('imports-large-files-size-bytes') ? 1 : GB)),
    large_files_count: counted.length,
    authors_count: visibleAuthors(rec).length,
    ...(status === 'importing' ? { commit_count: Math.round((TOTAL_COMMITS * (frame.percent ?? 0)) / 100) } : {}),
    // The fault: an import whose type was detected reports no percent.
    ...(frame.percent !== undefined && !(rec.vcs === null && ctx.fault('imports-detected-no-percent')) ? { percent: frame.percent } : {}),
    ...(frame.pushPercent !== undefined && !ctx.fault('imports-no-push-percent') ? { push_percent: frame.pushPercent } : {}),
    ...(status === 'error' && !ctx.fault('imports-error-no-failed-step') ? { failed_step: 'importing' } : {}),
    ...(status === 'error' && !ctx.fault('imports-error-no-message') ? { error_message: 'The source repository could not be read: unexpected end of pack data.' } : {}),
    ...(status === 'detection_found_multiple' && !ctx.fault('imports-no-project-choices') ? { project_choices: PROJECT_CHOICES } : {}),
    ...(ctx.fault('imports-password-echoed') && rec.credentials?.password ? { vcs_password: rec.credentials.password } : {}),
    url: `${url}/import`,
    html_url: `${ctx.webBase}/${rec.repo.owner}/${rec.repo.name}/import`,
    authors_url: `${url}/import/authors`,
    repository_url: url,
  };
}

export function renderAuthor(ctx: HandlerContext, rec: ImportRecord, a: Author): Record<string, unknown> {
  const importUrl = `${ctx.apiBase}/repos/${rec.repo.owner}/${rec.repo.name}/import`;
  return { id: ctx.fault('schema-import-author-id-string') ? String(a.id) : a.id, remote_id: a.remoteId, remote_name: a.remoteName, email: a.email, name: a.name, url: `${importUrl}/authors/${a.id}`, import_url: importUrl };
}
