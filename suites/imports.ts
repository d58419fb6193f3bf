/**
 * Source imports: the whole state table of document 2, driven through the profile's import
 * repository with one source URL per course. Every check writes (starts and deletes imports);
 * the import it leaves is deleted at the end. A target whose import interface answers 503
 * everywhere (it is retired) gets every check skipped with that reason.
 */
import { LIMITS } from '../spec/limits.js';
import { IMPORT_PROGRESSION } from '../spec/vocabulary.js';
import { expectRefusal } from '../core/refusal.js';
import type { Reply } from '../core/client.js';
import type { CheckContext, CheckSpec, Suite } from '../core/suite.js';
import { importCourseChecks } from './import-courses.js';
import { course, follow, importPath, start, url, type ImportRecord } from './imports-http.js';

/** The status an answer gives; where it gives none (requiredness is not shown) the check is left inconclusive. */
function statusIn(t: CheckContext, r: Reply, what: string): string | undefined {
  const s = t.body<ImportRecord>(r)?.status;
  if (s === undefined) t.inconclusive(`${what} answered ${r.status} without a status: nothing to judge`);
  return s;
}

/** "0 to 100": a number in that range (integer is not stated). */
const isPercent = (v: unknown) => typeof v === 'number' && v >= 0 && v <= 100;

function check(id: string, title: string, requirement: string, run: CheckSpec['run'], resources: CheckSpec['needs'] = { tokens: ['classic'], resources: ['import_repo', 'import_urls'] }): CheckSpec {
  return { id, title, requirement, needs: resources, writes: 'imports', run };
}

export const importsSuite: Suite = {
  name: 'imports',
  description: 'The source-import state machine, authors, large files and LFS preference.',
  checks: () => [
    check('imports.put-with-vcs-importing', 'PUT with vcs answers 201 and importing', 'imports.put-with-vcs-importing', async (t) => {
      const r = await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      if (t.expectStatus(r, [201], 'PUT with vcs')) {
        const s = statusIn(t, r, 'PUT with vcs');
        if (s !== undefined && s !== 'importing') t.fail(`status is ${JSON.stringify(s)}, not importing`);
      }
    }),
    check('imports.put-without-vcs-detecting', 'PUT without vcs starts at detecting', 'imports.put-without-vcs-detecting', async (t) => {
      const r = await start(t, { vcs_url: url(t, 'ok') });
      if (t.expectStatus(r, [201], 'PUT without vcs')) {
        const s = statusIn(t, r, 'PUT without vcs');
        if (s !== undefined && s !== 'detecting') t.fail(`status is ${JSON.stringify(s)}, not detecting`);
      }
    }),
    check('imports.vcs-url-required', 'PUT without vcs_url is refused with 422', 'imports.vcs-url-required', async (t) => {
      const control = await start(t, { vcs: 'git', vcs_url: url(t, 'ok') });
      await expectRefusal(t, { probe: await start(t, { vcs: 'git' }), control, expected: [422], what: 'PUT without vcs_url' });
    }),
    check('imports.workflow-automation-422', 'PUT on a repository with workflow automation answers 422', 'imports.workflow-automation-422', async (t) => {
      const body = { vcs: 'git', vcs_url: url(t, 'ok') };
      // The control: the same start in a repository without workflow automation.
      const control = await start(t, body);
      await expectRefusal(t, { probe: await start(t, body, t.resources.workflow_repo), control, expected: [422], what: `PUT on ${t.resources.workflow_repo}` });
    }, { tokens: ['classic'], resources: ['import_repo', 'workflow_repo', 'import_urls'] }),
    check('imports.importing-progress', 'While importing, commit_count is reported, and percent, when given, is 0 to 100', 'imports.importing-progress', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      const importing = (await follow(t)).filter((r) => r.status === 'importing');
      if (!importing.length) return t.skip('inconclusive', 'no importing state was observed');
      const without = importing.filter((r) => r.percent === undefined).length;
      if (without) t.info(`${without} of ${importing.length} importing records without percent (its presence is not stated)`);
      for (const r of importing) {
        // "commit_count | integer, present while importing"; percent is "0 to 100, during importing", its presence not stated.
        if (!Number.isInteger(r.commit_count)) t.fail(`importing without an integer commit_count: ${JSON.stringify(r.commit_count)}`);
        if (r.percent !== undefined && !isPercent(r.percent)) t.fail(`importing with percent ${JSON.stringify(r.percent)}, not 0 to 100`);
      }
    }),
    check('imports.importing-then-mapping', 'A clean import goes importing → mapping → pushing → complete, skipping none', 'imports.importing-then-mapping', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      const steps = course(await follow(t));
      // vcs given: the import starts at importing, detection skipped.
      const expected = IMPORT_PROGRESSION.filter((s) => s !== 'detecting');
      if (steps.join(' → ') !== expected.join(' → ')) t.fail(`observed ${steps.join(' → ')}, not ${expected.join(' → ')}`);
    }),
    check('imports.push-percent', 'While pushing, push_percent is reported, 0 to 100', 'imports.push-percent', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      const pushing = (await follow(t)).filter((r) => r.status === 'pushing');
      if (!pushing.length) return t.skip('inconclusive', 'no pushing state was observed');
      const reported = pushing.filter((r) => r.push_percent !== undefined);
      // "mapping | rewrite ends | | pushing | push_percent reported": a push that never reports it breaks the row.
      if (!reported.length) return t.fail(`none of ${pushing.length} pushing records reported push_percent ("mapping | rewrite ends | | pushing | push_percent reported", States and transitions)`);
      for (const r of reported) if (!isPercent(r.push_percent)) t.fail(`pushing with push_percent ${JSON.stringify(r.push_percent)}, not 0 to 100`);
    }),
    check('imports.auth-failed-restart', 'auth_failed restarts the import on PATCH with credentials', 'imports.auth-failed-restart', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'auth_failed') });
      if ((await follow(t)).at(-1)?.status !== 'auth_failed') return t.skip('inconclusive', 'the auth_failed URL did not reach auth_failed');
      const r = await t.request({ method: 'PATCH', path: importPath(t), body: { vcs_username: 'conformance', vcs_password: 'conformance-secret-pw' } });
      if (!t.expectStatus(r, [200], 'PATCH with credentials')) return;
      if (statusIn(t, r, 'PATCH with credentials') === 'auth_failed') t.fail('the import did not restart: still auth_failed');
    }),
    check('imports.needs-auth-restart', 'detection_needs_auth restarts detection on PATCH with credentials', 'imports.needs-auth-restart', async (t) => {
      await start(t, { vcs_url: url(t, 'needs_auth') });
      const seen = await follow(t);
      if (seen.at(-1)?.status !== 'detection_needs_auth') return t.fail(`detection ended in ${seen.at(-1)?.status}, not detection_needs_auth (observed ${course(seen).join(' → ')})`);
      const r = await t.request({ method: 'PATCH', path: importPath(t), body: { vcs_username: 'conformance', vcs_password: 'conformance-secret-pw' } });
      if (!t.expectStatus(r, [200], 'PATCH with credentials')) return;
      const s = statusIn(t, r, 'PATCH with credentials');
      if (s !== undefined && s !== 'detecting') t.fail(`after credentials the status is ${JSON.stringify(s)}, not detecting (restart of detection)`);
    }),
    check('imports.project-choices', 'detection_found_multiple offers project_choices', 'imports.project-choices', async (t) => {
      await start(t, { vcs_url: url(t, 'multiple') });
      const last = (await follow(t)).at(-1);
      if (last?.status !== 'detection_found_multiple') return t.skip('inconclusive', `the multiple URL ended in ${last?.status}`);
      if (!Array.isArray(last.project_choices) || !last.project_choices.length) t.fail('no project_choices');
    }),
    check('imports.multiple-restart', 'PATCH with one of project_choices restarts the import', 'imports.multiple-restart', async (t) => {
      await start(t, { vcs_url: url(t, 'multiple') });
      const last = (await follow(t)).at(-1);
      const choice = last?.project_choices?.[0];
      if (last?.status !== 'detection_found_multiple' || !choice) return t.skip('inconclusive', 'detection_found_multiple with a choice was not observed');
      const r = await t.request({ method: 'PATCH', path: importPath(t), body: choice });
      if (!t.expectStatus(r, [200], 'PATCH with a project choice')) return;
      if (statusIn(t, r, 'PATCH with a project choice') === 'detection_found_multiple') t.fail('the import did not restart');
    }),
    check('imports.error-failed-step', 'status error reports failed_step and an error message', 'imports.error-failed-step', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'broken') });
      const last = (await follow(t)).at(-1) as (ImportRecord & { error_message?: unknown; status_text?: unknown }) | undefined;
      if (last?.status !== 'error') return t.skip('inconclusive', `the broken URL ended in ${last?.status}`);
      if (typeof last.failed_step !== 'string') t.fail('status error without failed_step');
      // "plus an error message": the field is not named; error_message (the platform's) or a status_text saying something carries it.
      const said = (v: unknown) => typeof v === 'string' && v.trim() !== '';
      if (!said(last.error_message) && !said(last.status_text)) t.fail(`status error without an error message: error_message ${JSON.stringify(last.error_message)}, status_text ${JSON.stringify(last.status_text)}`);
    }),
    check('imports.patch-restarts', 'PATCH with no parameters restarts a finished import', 'imports.patch-restarts', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      if ((await follow(t)).at(-1)?.status !== 'complete') return t.skip('inconclusive', 'the import did not complete');
      const r = await t.request({ method: 'PATCH', path: importPath(t), body: {} });
      if (!t.expectStatus(r, [200], 'PATCH {}')) return;
      if (statusIn(t, r, 'PATCH {}') === 'complete') t.fail('the import did not restart: still complete');
    }),
    check('imports.delete', 'DELETE answers 204 and the import is gone', 'imports.delete', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      const control = await t.request({ path: importPath(t) });
      t.expectStatus(await t.request({ method: 'DELETE', path: importPath(t) }), [204], 'DELETE /import');
      await expectRefusal(t, { probe: { path: importPath(t) }, control, expected: [404], what: 'GET /import after DELETE' });
    }),
    check('imports.not-found-404', 'With no import, GET /import answers 404', 'imports.not-found-404', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      // The control: the same GET while the import exists.
      const control = await t.request({ path: importPath(t) });
      await t.request({ method: 'DELETE', path: importPath(t) });
      await expectRefusal(t, { probe: { path: importPath(t) }, control, expected: [404], what: 'GET /import with no import' });
    }),
    check('imports.large-files', 'Large files listed are over 100MB', 'imports.large-files', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'large') });
      await follow(t);
      const r = await t.request({ path: `${importPath(t)}/large_files` });
      if (!t.expectStatus(r, [200])) return;
      // Requiredness of size is not shown: only the sizes given are judged.
      const files = (t.body<{ path: string; size?: unknown }[]>(r) ?? []).filter((f): f is { path: string; size: number } => typeof f.size === 'number');
      if (!files.length) return t.skip('inconclusive', 'the large URL produced no large file with a size');
      for (const f of files) if (!(f.size > LIMITS.imports.largeFileBytes)) t.fail(`${f.path} is ${f.size} bytes, not over 100MB`);
    }),
    check('imports.authors-since', 'since lists only authors with a greater id', 'imports.authors-since', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      await follow(t);
      // Requiredness of id is not shown: only the authors that give one are compared.
      const all = (t.body<{ id?: unknown }[]>(await t.request({ path: `${importPath(t)}/authors` })) ?? []).filter((a): a is { id: number } => typeof a.id === 'number');
      if (all.length < 2) return t.skip('inconclusive', `${all.length} authors with an id: fewer than two`);
      const since = Math.min(...all.map((a) => a.id));
      const later = (t.body<{ id?: unknown }[]>(await t.request({ path: `${importPath(t)}/authors?since=${since}` })) ?? []).filter((a): a is { id: number } => typeof a.id === 'number');
      if (later.some((a) => a.id <= since)) t.fail(`since=${since} lists ids ${later.filter((a) => a.id <= since).map((a) => a.id).join(', ')}`);
      if (later.length !== all.length - 1) t.fail(`since=${since} lists ${later.length} authors, not ${all.length - 1}`);
    }),
    check('imports.author-validation', 'PATCH of an author with a non-string email is refused with 422', 'imports.author-validation', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      await follow(t);
      const first = (t.body<{ id: number; email?: unknown }[]>(await t.request({ path: `${importPath(t)}/authors` })) ?? [])[0];
      if (!first) return t.skip('inconclusive', 'no author to update');
      const path = `${importPath(t)}/authors/${first.id}`;
      const probe = await t.request({ method: 'PATCH', path, body: { email: 42 } });
      // The control: the same update with a string email (the author's own when it has one).
      const email = typeof first.email === 'string' ? first.email : 'conformance@example.invalid';
      await expectRefusal(t, { probe, control: { method: 'PATCH', path, body: { email } }, expected: [422], what: 'email: 42' });
    }),
    check('imports.lfs-validation', 'PATCH /import/lfs without a use_lfs string is refused with 422', 'imports.lfs-validation', async (t) => {
      await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok') });
      const path = `${importPath(t)}/lfs`;
      // The control: a string use_lfs, of the values the import record shows.
      const control = await t.request({ method: 'PATCH', path, body: { use_lfs: 'opt_out' } });
      for (const body of [{}, { use_lfs: 42 }]) await expectRefusal(t, { probe: { method: 'PATCH', path, body }, control, expected: [422], what: `PATCH /import/lfs ${JSON.stringify(body)}` });
    }),
    check('imports.record-fields', 'vcs_password is never echoed, by the record of a read, a start, an update or an LFS choice', 'imports.record-fields', async (t) => {
      const secret = 'conformance-secret-pw-7c1e';
      const r = await start(t, { vcs: 'subversion', vcs_url: url(t, 'ok'), vcs_username: 'conformance', vcs_password: secret });
      const records: [string, Reply][] = [
        ['PUT /import', r], ['GET /import', await t.request({ path: importPath(t) })],
        // Credentials given again: the record the update answers holds them too.
        ['PATCH /import', await t.request({ method: 'PATCH', path: importPath(t), body: { vcs_username: 'conformance', vcs_password: secret } })],
        ['PATCH /import/lfs', await t.request({ method: 'PATCH', path: `${importPath(t)}/lfs`, body: { use_lfs: 'opt_out' } })],
      ];
      const echoing = records.filter(([, x]) => x.text.includes(secret)).map(([what]) => what);
      if (echoing.length) t.fail(`${echoing.join(', ')} echo vcs_password`);
      else if (!records.some(([, x]) => x.status >= 200 && x.status < 300)) t.skip('inconclusive', `no import record to look at: answered ${records.map(([w, x]) => `${w} ${x.status}`).join(', ')}`);
    }),
    ...importCourseChecks,
  ],
};
