/**
 * Document 2, source imports: one import per repository, walking the spec's state table.
 * Progress is deterministic: each GET /import advances the import by one step (see imports/plan.ts).
 */
import { createHash } from 'node:crypto';
import { USE_LFS_VALUES, VALIDATION_FAILED } from '../../spec/vocabulary.js';
import { canRead } from '../access.js';
import type { AreaModule } from '../area.js';
import { empty, error, intParam, json, notFound, type HandlerContext, type HandlerResult } from '../http.js';
import type { Repo } from '../world.js';
import { plan, PROJECT_CHOICES, scenarioOf } from './imports/plan.js';
import { frameOf, renderAuthor, renderImport, visibleAuthors, visibleLargeFiles, type Author, type ImportRecord } from './imports/record.js';

export interface ImportsState {
  /** Imports keyed by repository id. */
  imports: Map<number, ImportRecord>;
  nextAuthorId: number;
}

/** Allowed `vcs` values are not shown; these are the source types the material names, plus git. */
const VCS_VALUES = ['subversion', 'git', 'mercurial', 'tfvc'];
/** Allowed `use_lfs` request values are not shown: the record's values except the initial `undecided`. */
const LFS_CHOICES: readonly string[] = USE_LFS_VALUES.filter((v) => v !== 'undecided');
/** Committers of every source, as bare usernames the importer normalizes. */
const REMOTE_AUTHORS = ['jdoe', 'asmith', 'nobody'];
const CREDENTIAL_FIELDS = ['vcs_username', 'vcs_password'];
const PATCH_FIELDS = [...CREDENTIAL_FIELDS, 'vcs', 'tfvc_project'];
const EMAIL = /^[^\s@]+@[^\s@]+$/;

const invalid = (resource: string, field: string, code: string) =>
  error(422, VALIDATION_FAILED, { errors: [{ resource, field, code }] });
const isResult = (v: unknown): v is HandlerResult => typeof v === 'object' && v !== null && 'status' in v;

function repository(ctx: HandlerContext): Repo | HandlerResult {
  const { world } = ctx.state;
  const repo = world.repo(ctx.params.owner ?? '', ctx.params.repo ?? '');
  return repo && !repo.movedTo && canRead(world, ctx.caller, repo) ? repo : notFound();
}

/** The repository's import; 404 when the repository or its import does not exist. */
function current(ctx: HandlerContext): ImportRecord | HandlerResult {
  const repo = repository(ctx);
  if (isResult(repo)) return repo;
  return ctx.state.imports.imports.get(repo.id) ?? notFound();
}

/** (Re)starts the course of an import from detection, or from the import when the vcs is known. */
function restart(ctx: HandlerContext, rec: ImportRecord, from: 'detecting' | 'importing' = rec.vcs === null ? 'detecting' : 'importing'): void {
  rec.frames = plan({ scenario: rec.scenario, from, credentials: rec.credentials !== null, chosen: rec.chosen, fault: ctx.fault });
  rec.step = 0;
}

function start(ctx: HandlerContext): HandlerResult {
  const repo = repository(ctx);
  if (isResult(repo)) return ctx.fault('imports-start-unknown-repo-422') ? invalid('Import', 'repository', 'invalid') : repo;
  const { imports } = ctx.state;
  // "PUT /import on a repository with workflow automation enabled answers 422."
  if (repo.workflowAutomation && !ctx.fault('imports-workflow-automation-accepted')) return invalid('Import', 'repository', 'workflow_automation_enabled');
  const body = ctx.body;
  if (body.vcs_url === undefined && !ctx.fault('imports-missing-vcs-url-accepted')) return invalid('Import', 'vcs_url', 'missing_field');
  const typeChecked = typeof body.vcs_url === 'string' || !ctx.fault('imports-vcs-url-type-unchecked');
  if (body.vcs_url !== undefined && typeChecked && (typeof body.vcs_url !== 'string' || !URL.canParse(body.vcs_url))) return invalid('Import', 'vcs_url', 'invalid');
  for (const field of PATCH_FIELDS) if (body[field] !== undefined && typeof body[field] !== 'string') return invalid('Import', field, 'invalid');
  if (typeof body.vcs === 'string' && !VCS_VALUES.includes(body.vcs)) return invalid('Import', 'vcs', 'invalid');
  // A new import needs the previous one deleted first ("DELETE import, then PUT import").
  if (imports.imports.has(repo.id)) return invalid('Import', 'repository', 'already_exists');

  const vcsUrl = typeof body.vcs_url === 'string' ? body.vcs_url : null;
  const credentials = CREDENTIAL_FIELDS.some((f) => body[f] !== undefined)
    ? { username: body.vcs_username as string | undefined, password: body.vcs_password as string | undefined } : null;
  const vcs = typeof body.vcs === 'string' ? body.vcs : null;
  const salt = createHash('sha1').update(`${repo.id}:${imports.nextAuthorId}`).digest('hex');
  const uuid = `${salt.slice(0, 8)}-${salt.slice(8, 12)}-${salt.slice(12, 16)}-${salt.slice(16, 20)}-${salt.slice(20, 32)}`;
  const authors: Author[] = REMOTE_AUTHORS.map((name) => {
    // Bare usernames are normalized: the remote id becomes name@<source uuid>, also the provisional email.
    const remoteId = `${name}@${uuid}`;
    return { id: imports.nextAuthorId++, remoteId, remoteName: name, email: remoteId, name };
  });
  const rec: ImportRecord = {
    repo, vcsUrl, vcs, scenario: scenarioOf(vcsUrl ?? ''), credentials, chosen: typeof body.tfvc_project === 'string',
    useLfs: 'undecided', frames: [], step: 0, authors,
  };
  // "vcs omitted | detecting" … "vcs given | importing"
  let from: 'detecting' | 'importing' = vcs === null ? 'detecting' : 'importing';
  if (vcs === null && ctx.fault('imports-put-without-vcs-importing')) from = 'importing';
  if (vcs !== null && ctx.fault('imports-put-with-vcs-detecting')) from = 'detecting';
  restart(ctx, rec, from);
  imports.imports.set(repo.id, rec);
  return json(201, renderImport(ctx, rec));
}

function update(ctx: HandlerContext, rec: ImportRecord): HandlerResult {
  const body = ctx.body;
  for (const field of PATCH_FIELDS) if (body[field] !== undefined && typeof body[field] !== 'string') return invalid('Import', field, 'invalid');
  const given = PATCH_FIELDS.filter((f) => body[f] !== undefined);
  const { status } = frameOf(rec);
  // "any | PATCH import with no parameters | | import restarted", error included (the same source fails again).
  if (given.length === 0) {
    if (!ctx.fault('imports-empty-patch-no-restart')) restart(ctx, rec);
    return json(200, renderImport(ctx, rec));
  }
  if (given.some((f) => CREDENTIAL_FIELDS.includes(f))) {
    rec.credentials = { username: body.vcs_username as string | undefined, password: body.vcs_password as string | undefined };
    // Detection already succeeded: the import itself restarts.
    if (status === 'auth_failed' && !ctx.fault('imports-credentials-no-restart')) restart(ctx, rec, ctx.fault('imports-auth-failed-restarts-detection') ? 'detecting' : 'importing');
    if (status === 'detection_needs_auth') restart(ctx, rec, ctx.fault('imports-needs-auth-skips-detection') ? 'importing' : 'detecting');
  }
  const choice = PROJECT_CHOICES.find((c) => c.vcs === body.vcs && c.tfvc_project === body.tfvc_project);
  if (status === 'detection_found_multiple' && choice && !ctx.fault('imports-choice-no-restart')) {
    rec.vcs = choice.vcs;
    rec.chosen = true;
    restart(ctx, rec);
  }
  return json(200, renderImport(ctx, rec));
}

function updateAuthor(ctx: HandlerContext, rec: ImportRecord): HandlerResult {
  const known = visibleAuthors(rec).find((a) => a.id === Number(ctx.params.author_id));
  if (known && frameOf(rec).status !== 'complete' && ctx.fault('imports-author-remap-once-complete')) return invalid('ImportAuthor', 'id', 'the import is still running');
  // The fault answers for an unknown id with an author made up on the spot.
  const author = known ?? (ctx.fault('imports-unknown-author-200') ? { id: Number(ctx.params.author_id), remoteId: '', remoteName: '', email: '', name: '' } : undefined);
  if (!author) return notFound();
  const { email, name } = ctx.body;
  if (!ctx.fault('imports-author-invalid-accepted')) {
    if (email !== undefined && (typeof email !== 'string' || !EMAIL.test(email))) return invalid('ImportAuthor', 'email', 'invalid');
    const nameChecked = !ctx.fault('imports-author-name-unchecked');
    if (nameChecked && name !== undefined && (typeof name !== 'string' || name.trim() === '')) return invalid('ImportAuthor', 'name', 'invalid');
  }
  // "Authors can be remapped at any time before new commits are pushed": no new commits arrive here.
  const kept = ctx.fault('imports-author-remap-not-kept') ? { ...author } : author;
  if (email !== undefined) kept.email = email as string;
  if (name !== undefined) kept.name = name as string;
  return json(200, renderAuthor(ctx, rec, kept));
}

/** Handlers that work on an existing import. */
const withImport = (fn: (ctx: HandlerContext, rec: ImportRecord) => HandlerResult) => (ctx: HandlerContext): HandlerResult => {
  const rec = current(ctx);
  return isResult(rec) ? rec : fn(ctx, rec);
};

export const importsArea: AreaModule<ImportsState> = {
  area: 'imports',
  faults: [
    { id: 'imports-get-none-200', requirement: 'imports.not-found-404', effect: 'GET /import without an import answers 200 with an empty object.' },
    { id: 'imports-put-without-vcs-importing', requirement: 'imports.put-without-vcs-detecting', effect: 'PUT without `vcs` starts at importing.' },
    { id: 'imports-put-with-vcs-detecting', requirement: 'imports.put-with-vcs-importing', effect: 'PUT with `vcs` starts at detecting.' },
    { id: 'imports-missing-vcs-url-accepted', requirement: 'imports.vcs-url-required', effect: 'PUT without `vcs_url` is accepted.' },
    { id: 'imports-workflow-automation-accepted', requirement: 'imports.workflow-automation-422', effect: 'PUT into a repository with workflow automation is accepted.' },
    { id: 'imports-skip-mapping', requirement: 'imports.importing-then-mapping', effect: 'Imports go from importing straight to pushing.' },
    { id: 'imports-percent-out-of-range', requirement: 'imports.importing-progress', effect: 'While importing, `percent` counts per mille, past 100.' },
    { id: 'imports-detected-no-percent', requirement: 'imports.detecting-then-importing', effect: 'An import started without vcs reports no percent once detection ends (commit_count only).' },
    { id: 'imports-no-push-percent', requirement: 'imports.push-percent', effect: 'While pushing, the record never reports push_percent.' },
    { id: 'imports-push-percent-out-of-range', requirement: 'imports.push-percent', effect: 'While pushing, `push_percent` counts per mille, past 100.' },
    { id: 'imports-password-echoed', requirement: 'imports.record-fields', effect: 'The record echoes `vcs_password`.' },
    { id: 'imports-error-no-message', requirement: 'imports.error-failed-step', effect: 'With status error, the record carries no error message: no error_message, and status_text empty.' },
    { id: 'imports-error-no-failed-step', requirement: 'imports.error-failed-step', effect: '`failed_step` is missing with status error.' },
    { id: 'imports-no-project-choices', requirement: 'imports.project-choices', effect: '`project_choices` is missing with detection_found_multiple.' },
    { id: 'imports-credentials-no-restart', requirement: 'imports.auth-failed-restart', effect: 'PATCH with credentials leaves an auth_failed import as it is.' },
    { id: 'imports-needs-auth-skips-detection', requirement: 'imports.needs-auth-restart', effect: 'PATCH with credentials after detection_needs_auth restarts at importing, not detection.' },
    { id: 'imports-choice-no-restart', requirement: 'imports.multiple-restart', effect: 'PATCH with a project choice leaves detection_found_multiple as it is.' },
    { id: 'imports-empty-patch-no-restart', requirement: 'imports.patch-restarts', effect: 'PATCH with no parameters does not restart the import.' },
    { id: 'imports-delete-200', requirement: 'imports.delete', effect: 'DELETE answers 200 instead of 204.' },
    { id: 'imports-delete-keeps-import', requirement: 'imports.delete', effect: 'DELETE answers 204 but the import stays.' },
    { id: 'imports-large-file-under-limit', requirement: 'imports.large-files', effect: 'A 50 MB file is counted and listed as a large file.' },
    { id: 'imports-since-ignored', requirement: 'imports.authors-since', effect: '`since` is ignored: authors with smaller ids are listed.' },
    { id: 'imports-author-invalid-accepted', requirement: 'imports.author-validation', effect: 'Author updates with a non-string name or an invalid email are accepted.' },
    { id: 'imports-unknown-author-200', requirement: 'imports.not-found-404', effect: 'PATCH of an author id the import does not have answers 200 with a made-up author.' },
    { id: 'imports-authors-without-import-200', requirement: 'imports.not-found-404', effect: 'GET /import/authors with no import answers 200 with an empty array.' },
    { id: 'imports-author-remap-once-complete', requirement: 'imports.author-remap', effect: 'Remapping an author is refused with 422 until the import is complete.' },
    { id: 'imports-author-remap-not-kept', requirement: 'imports.author-remap', effect: 'PATCH of an author answers 200 with the new name and email but keeps the old ones.' },
    { id: 'imports-auth-failed-restarts-detection', requirement: 'imports.auth-failed-restart', effect: 'Credentials after auth_failed restart detection, not the import.' },
    { id: 'imports-detection-skips-importing', requirement: 'imports.detecting-then-importing', effect: 'When detection ends the import goes straight to mapping.' },
    { id: 'imports-detected-vcs-null', requirement: 'imports.put-without-vcs-detecting', effect: 'Detection never fills in `vcs`: it stays null.' },
    { id: 'imports-found-nothing-not-deleted', requirement: 'imports.found-nothing-new-import', effect: 'DELETE of a detection_found_nothing import answers 204 but keeps it, so a new PUT is refused.' },
    { id: 'imports-has-large-files-false', requirement: 'imports.large-files', effect: '`has_large_files` stays false and `large_files_count` 0 while large files are listed.' },
    { id: 'imports-vcs-url-type-unchecked', requirement: 'imports.vcs-url-required', effect: 'PUT with a vcs_url that is not a string (a number) is accepted.' },
    { id: 'imports-author-name-unchecked', requirement: 'imports.author-validation', effect: 'Author updates with a name that is not a string are accepted.' },
    { id: 'imports-large-files-size-bytes', requirement: 'imports.large-files-size', effect: '`large_files_size` is given in bytes, not gigabytes.' },
    { id: 'imports-start-unknown-repo-422', requirement: 'imports.not-found-404', effect: 'PUT /import into a repository that does not exist answers 422 instead of 404.' },
    { id: 'imports-lfs-invalid-accepted', requirement: 'imports.lfs-validation', effect: 'Any `use_lfs` value is accepted and stored, a missing or non-string one included.' },
  ],
  createState: () => ({ imports: new Map(), nextAuthorId: 2268557 }),
  handlers: {
    'imports.get': (ctx) => {
      const repo = repository(ctx);
      if (isResult(repo)) return repo;
      const rec = ctx.state.imports.imports.get(repo.id);
      if (!rec) return ctx.fault('imports-get-none-200') ? json(200, {}) : notFound();
      // One step per poll, so no state of the course goes unseen.
      rec.step = Math.min(rec.step + 1, rec.frames.length - 1);
      return json(200, renderImport(ctx, rec));
    },
    'imports.start': start,
    'imports.update': withImport(update),
    'imports.cancel': withImport((ctx, rec) => {
      const keepNothingFound = frameOf(rec).status === 'detection_found_nothing' && ctx.fault('imports-found-nothing-not-deleted');
      if (!ctx.fault('imports-delete-keeps-import') && !keepNothingFound) ctx.state.imports.imports.delete(rec.repo.id);
      return ctx.fault('imports-delete-200') ? json(200, renderImport(ctx, rec)) : empty(204);
    }),
    'imports.authors': (ctx) => {
      const rec = current(ctx);
      if (isResult(rec)) return rec.status === 404 && ctx.fault('imports-authors-without-import-200') ? json(200, []) : rec;
      const since = intParam(ctx.query.get('since'), Number.NEGATIVE_INFINITY);
      const authors = visibleAuthors(rec).filter((a) => ctx.fault('imports-since-ignored') || a.id > since);
      return json(200, authors.map((a) => renderAuthor(ctx, rec, a)));
    },
    'imports.author-update': withImport(updateAuthor),
    'imports.large-files': withImport((ctx, rec) => json(200, visibleLargeFiles(ctx, rec)
      .map((f) => (ctx.fault('schema-large-file-size-string') ? { ...f, size: String(f.size) } : f)))),
    'imports.lfs': withImport((ctx, rec) => {
      const { use_lfs: useLfs } = ctx.body;
      if (ctx.fault('imports-lfs-invalid-accepted')) {
        rec.useLfs = String(useLfs ?? rec.useLfs);
        return json(200, renderImport(ctx, rec));
      }
      if (typeof useLfs !== 'string' || !LFS_CHOICES.includes(useLfs)) return invalid('Import', 'use_lfs', 'invalid');
      rec.useLfs = useLfs;
      return json(200, renderImport(ctx, rec));
    }),
  },
};
