/**
 * Import rules the state-machine checks leave open: 404 for an unknown author and for authors
 * without an import, remapping that stays, detection ending in importing with the type found,
 * a new import after detection_found_nothing, credentials restarting the import (not detection),
 * and the record's large-file figures agreeing with the large files listed.
 */
import type { CheckContext, CheckSpec } from '../core/suite.js';
import { IMPORT_RESTING, IMPORT_UNDETECTED } from '../spec/vocabulary.js';
import { course, follow, importPath, start, url, type ImportRecord } from './imports-http.js';

interface Author { id: number; name?: string; email?: string }

const NEEDS: CheckSpec['needs'] = { tokens: ['classic'], resources: ['import_repo', 'import_urls'] };
const check = (id: string, title: string, requirement: string, run: CheckSpec['run']): CheckSpec => ({ id, title, requirement, needs: NEEDS, writes: 'imports', run });

/** A finished clean import and its first author, or a skip. */
async function importedAuthor(t: CheckContext): Promise<Author> {
  await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
  await follow(t);
  const r = await t.request({ path: `${importPath(t)}/authors` });
  const first = r.status === 200 && Array.isArray(r.json) ? (r.json[0] as Author | undefined) : undefined;
  if (!first) return t.skip('inconclusive', `no author to update (GET /import/authors answered ${r.status})`);
  return first;
}

/** The course of an import started without vcs, from detection to rest. */
async function detectedCourse(t: CheckContext): Promise<ImportRecord[]> {
  const r = await start(t, { vcs_url: url(t, 'ok') });
  if (r.status !== 201) return t.skip('inconclusive', `PUT without vcs answered ${r.status}`);
  return [t.body<ImportRecord>(r)!, ...(await follow(t))];
}

export const importCourseChecks: CheckSpec[] = [
  check('imports.author-not-found-404', 'PATCH of an author id the import does not have answers 404; the same PATCH of a listed author answers 200', 'imports.not-found-404', async (t) => {
    const author = await importedAuthor(t);
    const body = { name: 'Conformance Author' };
    const control = await t.request({ method: 'PATCH', path: `${importPath(t)}/authors/${author.id}`, body });
    if (control.status !== 200) return t.skip('inconclusive', `the control (PATCH of listed author ${author.id}) answered ${control.status}`);
    t.expectStatus(await t.request({ method: 'PATCH', path: `${importPath(t)}/authors/2147483647`, body }), [404], 'PATCH of an author id the import does not have');
  }),
  check('imports.vcs-url-type', 'PUT with a vcs_url that is not a string is refused with 422; the same PUT with a URL string answers 201', 'imports.vcs-url-required', async (t) => {
    const control = await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
    if (control.status !== 201) return t.skip('inconclusive', `the control (PUT with a URL string) answered ${control.status}`);
    t.expectStatus(await start(t, { vcs: 'subversion', vcs_url: 42 }), [422], 'PUT with vcs_url 42');
  }),
  check('imports.author-name-type', 'PATCH of an author with a name that is not a string is refused with 422; a string name answers 200', 'imports.author-validation', async (t) => {
    const author = await importedAuthor(t);
    const path = `${importPath(t)}/authors/${author.id}`;
    const control = await t.request({ method: 'PATCH', path, body: { name: 'Conformance Author' } });
    if (control.status !== 200) return t.skip('inconclusive', `the control (a string name) answered ${control.status}`);
    t.expectStatus(await t.request({ method: 'PATCH', path, body: { name: 42 } }), [422], 'PATCH with name 42');
  }),
  check('imports.start-unknown-repo-404', 'PUT /import into a repository that does not exist answers 404; into import_repo 201', 'imports.not-found-404', async (t) => {
    const control = await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
    if (control.status !== 201) return t.skip('inconclusive', `the control (PUT into ${t.resources.import_repo}) answered ${control.status}`);
    const owner = t.resources.import_repo!.split('/')[0];
    const path = `/repos/${owner}/conformance-no-such-repo-7f3a/import`;
    t.expectStatus(await t.request({ method: 'PUT', path, body: { vcs: 'subversion', vcs_url: url(t, 'ok') } }), [404], `PUT ${path}`);
  }),
  check('imports.authors-not-found-404', 'With no import, GET /import/authors answers 404 (200 while the import exists)', 'imports.not-found-404', async (t) => {
    await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
    const path = `${importPath(t)}/authors`;
    if (!t.expectStatus(await t.request({ path }), [200], 'GET /import/authors while the import exists (the control)')) return;
    const d = await t.request({ method: 'DELETE', path: importPath(t) });
    if (d.status !== 204) return t.skip('inconclusive', `DELETE /import answered ${d.status}`);
    t.expectStatus(await t.request({ path }), [404], 'GET /import/authors with no import');
  }),
  check('imports.author-remap', 'PATCH of an author with a name and email answers 200 and the author keeps them', 'imports.author-remap', async (t) => {
    const author = await importedAuthor(t);
    const body = { name: 'Conformance Remapped', email: 'remapped@conformance.invalid' };
    const r = await t.request({ method: 'PATCH', path: `${importPath(t)}/authors/${author.id}`, body });
    if (!t.expectStatus(r, [200], `PATCH author ${author.id}`)) return;
    const answered = t.body<Author>(r);
    if (answered?.name !== body.name || answered.email !== body.email) t.fail(`the PATCH answered name ${JSON.stringify(answered?.name)}, email ${JSON.stringify(answered?.email)}`);
    const listed = (t.body<Author[]>(await t.request({ path: `${importPath(t)}/authors` })) ?? []).find((a) => a.id === author.id);
    if (listed?.name !== body.name || listed.email !== body.email) t.fail(`GET /import/authors then shows author ${author.id} as ${JSON.stringify(listed)}`);
  }),
  check('imports.author-remap-while-importing', 'An author is remapped while the import is still running (200), not only once it is complete', 'imports.author-remap', async (t) => {
    await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
    // "at any time before new commits are pushed": the first moment the record counts authors, before it rests.
    const last = (await follow(t, (r) => IMPORT_RESTING.includes(r.status) || ((r as { authors_count?: unknown }).authors_count as number) > 0)).at(-1);
    if (!last || IMPORT_RESTING.includes(last.status)) return t.skip('inconclusive', `the import reached ${last?.status} before it counted an author`);
    const listed = await t.request({ path: `${importPath(t)}/authors` });
    const author = listed.status === 200 && Array.isArray(listed.json) ? (listed.json[0] as Author | undefined) : undefined;
    if (!author) return t.skip('inconclusive', `while ${last.status}, GET /import/authors listed no author (${listed.status})`);
    const r = await t.request({ method: 'PATCH', path: `${importPath(t)}/authors/${author.id}`, body: { name: 'Conformance Early', email: 'early@conformance.invalid' } });
    t.expectStatus(r, [200], `PATCH author ${author.id} while the import is ${last.status}`);
  }),
  check('imports.detection-identifies-vcs', 'Without vcs, detection fills in vcs: once detection ends the record names the type', 'imports.put-without-vcs-detecting', async (t) => {
    const seen = await detectedCourse(t);
    const detected = seen.filter((r) => !IMPORT_UNDETECTED.includes(r.status));
    if (!detected.length) return t.skip('inconclusive', `detection never ended (observed ${course(seen).join(' → ')})`);
    const blank = detected.filter((r) => typeof r.vcs !== 'string' || r.vcs === '');
    if (blank.length) t.fail(`after detection, ${blank.length} records (status ${blank[0]!.status}) carry vcs ${JSON.stringify(blank[0]!.vcs)}`);
  }),
  check('imports.detecting-then-importing', 'When detection finds the type, the import goes on to importing and reports commit_count and percent', 'imports.detecting-then-importing', async (t) => {
    const seen = await detectedCourse(t);
    const steps = course(seen);
    if (steps[0] !== 'detecting' || steps.length < 2) return t.skip('inconclusive', `observed ${steps.join(' → ')}: no detection that ended`);
    if (steps[1] !== 'importing') return t.fail(`detection was followed by ${steps[1]}, not importing (observed ${steps.join(' → ')})`);
    // "importing | commit data fetched; commit_count and percent reported": by some importing record after detection.
    const importing = seen.filter((r) => r.status === 'importing');
    if (!importing.some((r) => Number.isInteger(r.commit_count))) t.fail(`none of ${importing.length} importing records after detection reports commit_count`);
    if (!importing.some((r) => typeof r.percent === 'number')) t.fail(`none of ${importing.length} importing records after detection reports percent`);
  }),
  check('imports.found-nothing-new-import', 'After detection_found_nothing, DELETE and a PUT with a correct URL start a new import', 'imports.found-nothing-new-import', async (t) => {
    await start(t, { vcs_url: url(t, 'nothing') });
    const last = (await follow(t)).at(-1);
    if (last?.status !== 'detection_found_nothing') return t.skip('inconclusive', `the nothing URL ended in ${last?.status}`);
    if (!t.expectStatus(await t.request({ method: 'DELETE', path: importPath(t) }), [204], 'DELETE the import that found nothing')) return;
    t.expectStatus(await start(t, { vcs_url: url(t, 'ok') }), [201], 'PUT with a correct URL after the DELETE');
  }),
  check('imports.auth-failed-restarts-import', 'Credentials after auth_failed restart the import itself, not detection', 'imports.auth-failed-restart', async (t) => {
    await start(t, { vcs: 'subversion', vcs_url: url(t, 'auth_failed') });
    if ((await follow(t)).at(-1)?.status !== 'auth_failed') return t.skip('inconclusive', 'the auth_failed URL did not reach auth_failed');
    const r = await t.request({ method: 'PATCH', path: importPath(t), body: { vcs_username: 'conformance', vcs_password: 'conformance-secret-pw' } });
    if (!t.expectStatus(r, [200], 'PATCH with credentials')) return;
    const status = t.body<ImportRecord>(r)?.status;
    if (status && IMPORT_UNDETECTED.includes(status)) t.fail(`after credentials the import is ${status}: detection restarted, not the import`);
  }),
  check('imports.large-files-record', 'has_large_files and large_files_count of the record agree with the large-file listing', 'imports.large-files', async (t) => {
    await start(t, { vcs: 'subversion', vcs_url: url(t, 'large') });
    const record = (await follow(t)).at(-1);
    const r = await t.request({ path: `${importPath(t)}/large_files` });
    const files = r.status === 200 && Array.isArray(r.json) ? r.json : [];
    if (!record || !IMPORT_RESTING.includes(record.status) || !files.length) return t.skip('inconclusive', `the large URL listed ${files.length} large files (status ${record?.status})`);
    const now = t.body<ImportRecord>(await t.request({ path: importPath(t) }));
    if (now?.has_large_files !== true) t.fail(`${files.length} large files are listed, yet has_large_files is ${JSON.stringify(now?.has_large_files)}`);
    if (now?.large_files_count !== files.length) t.fail(`${files.length} large files are listed, yet large_files_count is ${JSON.stringify(now?.large_files_count)}`);
  }),
  check('imports.large-files-size', 'large_files_size is the total size of the listed large files in gigabytes', 'imports.large-files-size', async (t) => {
    await start(t, { vcs: 'subversion', vcs_url: url(t, 'large') });
    await follow(t);
    const r = await t.request({ path: `${importPath(t)}/large_files` });
    const files = r.status === 200 && Array.isArray(r.json) ? (r.json as { size?: unknown }[]) : [];
    const bytes = files.reduce((sum, f) => sum + (typeof f.size === 'number' ? f.size : 0), 0);
    if (!bytes) return t.skip('inconclusive', 'the large URL listed no large file with a size');
    const size = t.body<ImportRecord>(await t.request({ path: importPath(t) }))?.large_files_size;
    if (size === undefined) return t.info('the record has no large_files_size');
    // Gigabytes are not said to be 10^9 or 2^30 bytes, nor how they are rounded: within one of either reading passes.
    const near = [1e9, 2 ** 30].some((gb) => typeof size === 'number' && Math.abs(size - bytes / gb) <= 1);
    if (!near) t.fail(`the listed large files total ${bytes} bytes, yet large_files_size is ${JSON.stringify(size)}`);
  }),
];
