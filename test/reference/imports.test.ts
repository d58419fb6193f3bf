/** Document 2, source imports: the state table and each endpoint over HTTP, then each named fault breaking its rule. */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../spec/catalogue.js';
import { LIMITS } from '../../spec/limits.js';
import { IMPORT_PROGRESSION, IMPORT_STATUSES, USE_LFS_VALUES, VALIDATION_FAILED } from '../../spec/vocabulary.js';
import { call, TOKENS, useReference, type Reply } from '../helpers/reference.js';
import { describeFaultProbes, type Probe } from '../helpers/faults.js';

const IMPORT = '/repos/acme/import-target/import';
const RECORD_FIELDS = ['vcs', 'vcs_url', 'status', 'status_text', 'use_lfs', 'has_large_files', 'large_files_size', 'large_files_count',
  'authors_count', 'url', 'html_url', 'authors_url', 'repository_url'];
const AUTHOR_FIELDS = ['id', 'remote_id', 'remote_name', 'email', 'name', 'url', 'import_url'];
/** States the import rests in until someone acts. */
const RESTING = ['complete', 'auth_failed', 'error', 'detection_needs_auth', 'detection_found_nothing', 'detection_found_multiple'];
const SOURCE = 'https://svn.example.invalid/projects/widgets';
const url = (scenario: string) => `https://svn.example.invalid/${scenario}/widgets`;

type Record_ = Record<string, any>;
const send = (base: string, method: string, path: string, body?: unknown, token?: string) =>
  call(base, path, { method, ...(body !== undefined ? { body } : {}), ...(token ? { token } : {}) });

/** A new import (any previous one deleted first). */
async function begin(base: string, body: Record<string, unknown>): Promise<Reply> {
  await send(base, 'DELETE', IMPORT);
  return send(base, 'PUT', IMPORT, body);
}

/** Polls GET /import until it rests; returns every record seen, the start included. */
async function course(base: string, startRecord: Record_): Promise<Record_[]> {
  const seen = [startRecord];
  for (let i = 0; i < 20 && !RESTING.includes(seen[seen.length - 1]!.status); i++) {
    const r = await call(base, IMPORT);
    expect(r.status).toBe(200);
    seen.push(r.body);
  }
  return seen;
}

const statuses = (records: Record_[]) => records.map((r) => r.status).filter((s, i, all) => i === 0 || all[i - 1] !== s);
async function runTo(base: string, status: string, body: Record<string, unknown> = { vcs_url: SOURCE }): Promise<Record_[]> {
  const seen: Record_[] = [(await begin(base, body)).body];
  while (seen[seen.length - 1]!.status !== status && seen.length < 20) seen.push((await call(base, IMPORT)).body);
  return seen;
}

describe('source imports: starting', () => {
  const ref = useReference();

  it('answers 404 on every import endpoint while there is no import', async () => {
    await send(ref.url, 'DELETE', IMPORT);
    expect((await ref.get(IMPORT)).status).toBe(404);
    expect((await ref.get(`${IMPORT}/authors`)).status).toBe(404);
    expect((await send(ref.url, 'PATCH', `${IMPORT}/authors/1`, { name: 'x' })).status).toBe(404);
    expect((await send(ref.url, 'PATCH', IMPORT, {})).status).toBe(404);
  });

  it('starts at detecting without vcs and at importing with it, answering 201 with the record fields', async () => {
    const detecting = await begin(ref.url, { vcs_url: SOURCE });
    expect(detecting.status).toBe(201);
    expect(detecting.body.status).toBe('detecting');
    expect(Object.keys(detecting.body).sort()).toEqual([...RECORD_FIELDS].sort());
    expect(USE_LFS_VALUES).toContain(detecting.body.use_lfs);
    const importing = await begin(ref.url, { vcs_url: SOURCE, vcs: 'subversion' });
    expect(importing.status).toBe(201);
    expect(importing.body.status).toBe('importing');
    expect(importing.body.vcs).toBe('subversion');
    expect(importing.body.vcs_url).toBe(SOURCE);
  });

  it('refuses a missing or malformed vcs_url, and a second import before DELETE, with 422', async () => {
    await send(ref.url, 'DELETE', IMPORT);
    for (const body of [{}, { vcs: 'git' }, { vcs_url: 42 }, { vcs_url: 'not a url' }]) {
      const r = await send(ref.url, 'PUT', IMPORT, body);
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(VALIDATION_FAILED);
    }
    expect((await ref.get(IMPORT)).status).toBe(404);
    expect((await send(ref.url, 'PUT', IMPORT, { vcs_url: SOURCE })).status).toBe(201);
    expect((await send(ref.url, 'PUT', IMPORT, { vcs_url: SOURCE })).status).toBe(422);
  });

  it('answers 422 for a repository with workflow automation and 404 for an unknown one', async () => {
    expect((await send(ref.url, 'PUT', '/repos/acme/automation/import', { vcs_url: SOURCE })).status).toBe(422);
    expect((await send(ref.url, 'PUT', '/repos/acme/nope/import', { vcs_url: SOURCE })).status).toBe(404);
  });

  it('lets only user tokens write (the pipeline), and answers 503 nowhere while not retired', async () => {
    expect((await send(ref.url, 'DELETE', IMPORT, undefined, TOKENS.appInstallation)).status).toBe(403);
    const r = await begin(ref.url, { vcs_url: SOURCE });
    expect(r.status).toBe(201);
    expect((await call(ref.url, IMPORT, { token: TOKENS.appInstallation })).status).toBe(200);
  });
});

describe('source imports: the course of an import', () => {
  const ref = useReference();

  it('walks detecting → importing → mapping → pushing → complete, one step per GET, none skipped', async () => {
    const seen = await course(ref.url, (await begin(ref.url, { vcs_url: SOURCE })).body);
    expect(statuses(seen)).toEqual([...IMPORT_PROGRESSION]);
    const importing = seen.filter((r) => r.status === 'importing');
    expect(importing.length).toBeGreaterThan(1);
    const percents = importing.map((r) => r.percent as number);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents[percents.length - 1]).toBe(100);
    for (const r of importing) {
      expect(Number.isInteger(r.commit_count)).toBe(true);
      expect(r.percent).toBeGreaterThanOrEqual(0);
    }
    for (const r of seen.filter((x) => x.status === 'mapping')) {
      expect(r).not.toHaveProperty('percent');
      expect(r).not.toHaveProperty('push_percent');
    }
    const pushing = seen.filter((r) => r.status === 'pushing');
    expect(pushing.length).toBeGreaterThan(0);
    for (const r of pushing) expect(r.push_percent).toBeGreaterThanOrEqual(0);
    const done = seen[seen.length - 1]!;
    expect(done.vcs).toEqual(expect.any(String));
    expect(Object.keys(done).sort()).toEqual([...RECORD_FIELDS].sort());
    expect(IMPORT_STATUSES).toContain(done.status);
    expect((await ref.get(IMPORT)).body.status).toBe('complete');
  });

  it('skips only detection when vcs is given', async () => {
    const seen = await course(ref.url, (await begin(ref.url, { vcs_url: SOURCE, vcs: 'subversion' })).body);
    expect(statuses(seen)).toEqual(IMPORT_PROGRESSION.slice(1));
  });

  it('restarts any import on PATCH with no parameters', async () => {
    await course(ref.url, (await begin(ref.url, { vcs_url: SOURCE })).body);
    const r = await send(ref.url, 'PATCH', IMPORT, {});
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('detecting');
    const broken = await runTo(ref.url, 'error', { vcs_url: url('broken') });
    expect(broken[broken.length - 1]!.status).toBe('error');
    expect((await send(ref.url, 'PATCH', IMPORT, {})).body.status).toBe('detecting');
  });

  it('detection_needs_auth: PATCH with credentials restarts detection, and the import then completes', async () => {
    const seen = await course(ref.url, (await begin(ref.url, { vcs_url: url('needs-auth') })).body);
    expect(statuses(seen)).toEqual(['detecting', 'detection_needs_auth']);
    const r = await send(ref.url, 'PATCH', IMPORT, { vcs_username: 'octo', vcs_password: 'hunter2' });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('detecting');
    expect(statuses(await course(ref.url, r.body))).toEqual([...IMPORT_PROGRESSION]);
  });

  it('auth_failed: PATCH with credentials restarts the import', async () => {
    const seen = await course(ref.url, (await begin(ref.url, { vcs_url: url('auth-failed') })).body);
    expect(statuses(seen)).toEqual(['detecting', 'importing', 'auth_failed']);
    const r = await send(ref.url, 'PATCH', IMPORT, { vcs_username: 'octo', vcs_password: 'hunter2' });
    expect(r.body.status).toBe('importing');
    expect(statuses(await course(ref.url, r.body))).toEqual(IMPORT_PROGRESSION.slice(1));
  });

  it('detection_found_multiple: project_choices listed; PATCH with one entry restarts the import', async () => {
    const seen = await course(ref.url, (await begin(ref.url, { vcs_url: url('multiple') })).body);
    const multiple = seen[seen.length - 1]!;
    expect(multiple.status).toBe('detection_found_multiple');
    expect(multiple.project_choices.length).toBeGreaterThan(1);
    const choice = multiple.project_choices[1];
    const r = await send(ref.url, 'PATCH', IMPORT, { vcs: choice.vcs, tfvc_project: choice.tfvc_project });
    expect(r.body.status).toBe('importing');
    expect(r.body.vcs).toBe(choice.vcs);
    expect(r.body).not.toHaveProperty('project_choices');
    expect(statuses(await course(ref.url, r.body))).toEqual(IMPORT_PROGRESSION.slice(1));
  });

  it('detection_found_nothing: DELETE, then PUT with a correct URL starts a new import', async () => {
    const seen = await course(ref.url, (await begin(ref.url, { vcs_url: url('nothing') })).body);
    expect(statuses(seen)).toEqual(['detecting', 'detection_found_nothing']);
    const del = await send(ref.url, 'DELETE', IMPORT);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await ref.get(IMPORT)).status).toBe(404);
    const again = await send(ref.url, 'PUT', IMPORT, { vcs_url: SOURCE });
    expect(again.status).toBe(201);
    expect(again.body.status).toBe('detecting');
  });

  it('error: failed_step and an error message are reported', async () => {
    const seen = await course(ref.url, (await begin(ref.url, { vcs_url: url('broken') })).body);
    expect(statuses(seen)).toEqual(['detecting', 'importing', 'error']);
    const error = seen[seen.length - 1]!;
    expect(error.failed_step).toEqual(expect.any(String));
    expect(error.error_message).toEqual(expect.any(String));
  });

  it('never echoes vcs_password or vcs_username', async () => {
    const replies = [await begin(ref.url, { vcs_url: url('auth-failed'), vcs_username: 'octo-user', vcs_password: 's3cr3t-pw' })];
    for (let i = 0; i < 3; i++) replies.push(await ref.get(IMPORT));
    replies.push(await send(ref.url, 'PATCH', IMPORT, { vcs_username: 'octo-user', vcs_password: 's3cr3t-pw' }));
    for (const r of replies) {
      expect(r.text).not.toContain('s3cr3t-pw');
      expect(r.text).not.toContain('octo-user');
    }
  });
});

describe('source imports: authors, large files, LFS', () => {
  const ref = useReference();

  it('lists authors with their fields; since keeps only greater ids', async () => {
    await runTo(ref.url, 'mapping');
    const all = await ref.get(`${IMPORT}/authors`);
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(1);
    for (const a of all.body) expect(Object.keys(a).sort()).toEqual([...AUTHOR_FIELDS].sort());
    expect((await ref.get(IMPORT)).body.authors_count).toBe(all.body.length);
    const since = all.body[0].id as number;
    const later = await ref.get(`${IMPORT}/authors?since=${since}`);
    expect(later.body.length).toBe(all.body.length - 1);
    expect(later.body.every((a: Record_) => a.id > since)).toBe(true);
  });

  it('remaps an author; refuses non-string values and invalid emails with 422; 404 for unknown authors', async () => {
    await runTo(ref.url, 'pushing');
    const author = (await ref.get(`${IMPORT}/authors`)).body[0];
    const path = `${IMPORT}/authors/${author.id}`;
    const ok = await send(ref.url, 'PATCH', path, { email: 'jane@example.invalid', name: 'Jane Doe' });
    expect(ok.status).toBe(200);
    expect([ok.body.email, ok.body.name, ok.body.id]).toEqual(['jane@example.invalid', 'Jane Doe', author.id]);
    for (const body of [{ email: 'not-an-email' }, { email: 7 }, { name: ['x'] }]) {
      const r = await send(ref.url, 'PATCH', path, body);
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(VALIDATION_FAILED);
    }
    expect((await ref.get(`${IMPORT}/authors`)).body[0].email).toBe('jane@example.invalid');
    expect((await send(ref.url, 'PATCH', `${IMPORT}/authors/1`, { name: 'x' })).status).toBe(404);
  });

  it('reports files over 100MB in the record and in large_files', async () => {
    const seen = await runTo(ref.url, 'complete', { vcs_url: url('large') });
    const done = seen[seen.length - 1]!;
    const files = (await ref.get(`${IMPORT}/large_files`)).body as Record_[];
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(Object.keys(f).sort()).toEqual(['oid', 'path', 'ref_name', 'size']);
      expect(f.size).toBeGreaterThan(LIMITS.imports.largeFileBytes);
    }
    expect(done.has_large_files).toBe(true);
    expect(done.large_files_count).toBe(files.length);
    expect(Number.isInteger(done.large_files_size)).toBe(true);
    await runTo(ref.url, 'complete');
    expect((await ref.get(`${IMPORT}/large_files`)).body).toEqual([]);
  });

  it('sets use_lfs to opt_in or opt_out and refuses anything else with 422', async () => {
    await begin(ref.url, { vcs_url: SOURCE });
    for (const value of ['opt_in', 'opt_out']) {
      const r = await send(ref.url, 'PATCH', `${IMPORT}/lfs`, { use_lfs: value });
      expect(r.status).toBe(200);
      expect(r.body.use_lfs).toBe(value);
    }
    for (const body of [{ use_lfs: 'maybe' }, { use_lfs: true }, {}]) expect((await send(ref.url, 'PATCH', `${IMPORT}/lfs`, body)).status).toBe(422);
    expect((await ref.get(IMPORT)).body.use_lfs).toBe('opt_out');
  });
});

describe('source imports: retired', () => {
  const ref = useReference({ importsRetired: true });

  it('answers 503 with a message on every import endpoint', async () => {
    const endpoints = CATALOGUE.filter((e) => e.area === 'imports');
    expect(endpoints.length).toBeGreaterThan(0);
    for (const e of endpoints) {
      const path = e.path.replace('{owner}', 'acme').replace('{repo}', 'import-target').replace('{author_id}', '1');
      const r = await send(ref.url, e.method, path, e.method === 'GET' || e.method === 'DELETE' ? undefined : { vcs_url: SOURCE });
      expect(r.status, `${e.method} ${path}`).toBe(503);
      expect(r.body.message).toEqual(expect.any(String));
    }
  });
});

/** Each probe holds against the correct reference and fails against one started with its fault. */
const last = (records: Record_[]) => records[records.length - 1]!;
const credentials = { vcs_username: 'octo', vcs_password: 'hunter2' };

const PROBES: Record<string, Probe> = {
  'imports-get-none-200': async (b) => (await call(b, IMPORT)).status === 404,
  'imports-put-without-vcs-importing': async (b) => (await begin(b, { vcs_url: SOURCE })).body.status === 'detecting',
  'imports-put-with-vcs-detecting': async (b) => (await begin(b, { vcs_url: SOURCE, vcs: 'git' })).body.status === 'importing',
  'imports-missing-vcs-url-accepted': async (b) => (await begin(b, { vcs: 'git' })).status === 422,
  'imports-workflow-automation-accepted': async (b) => (await send(b, 'PUT', '/repos/acme/automation/import', { vcs_url: SOURCE })).status === 422,
  'imports-skip-mapping': async (b) => statuses(await course(b, (await begin(b, { vcs_url: SOURCE })).body)).includes('mapping'),
  'imports-percent-out-of-range': async (b) => (await course(b, (await begin(b, { vcs_url: SOURCE })).body))
    .filter((r) => r.status === 'importing').every((r) => r.percent! >= 0 && r.percent! <= 100),
  'imports-detected-no-percent': async (b) => (await course(b, (await begin(b, { vcs_url: SOURCE })).body))
    .filter((r) => r.status === 'importing').some((r) => typeof r.percent === 'number'),
  'imports-no-push-percent': async (b) => (await course(b, (await begin(b, { vcs_url: SOURCE })).body))
    .filter((r) => r.status === 'pushing').some((r) => r.push_percent !== undefined),
  'imports-push-percent-out-of-range': async (b) => (await course(b, (await begin(b, { vcs_url: SOURCE })).body))
    .filter((r) => r.status === 'pushing').every((r) => r.push_percent! >= 0 && r.push_percent! <= 100),
  'imports-password-echoed': async (b) => !(await begin(b, { vcs_url: SOURCE, ...credentials })).text.includes(credentials.vcs_password),
  'imports-author-remap-once-complete': async (b) => {
    await runTo(b, 'mapping', { vcs: 'subversion', vcs_url: SOURCE });
    const [author] = (await call(b, `${IMPORT}/authors`)).body as { id: number }[];
    return (await send(b, 'PATCH', `${IMPORT}/authors/${author!.id}`, { name: 'Early', email: 'early@example.invalid' })).status === 200;
  },
  'imports-error-no-message': async (b) => {
    const record = last(await runTo(b, 'error', { vcs_url: url('broken') })) as { error_message?: unknown; status_text?: unknown };
    return typeof record.error_message === 'string' && record.error_message !== '';
  },
  'imports-error-no-failed-step': async (b) => typeof last(await runTo(b, 'error', { vcs_url: url('broken') })).failed_step === 'string',
  'imports-no-project-choices': async (b) =>
    Array.isArray(last(await runTo(b, 'detection_found_multiple', { vcs_url: url('multiple') })).project_choices),
  'imports-credentials-no-restart': async (b) => {
    await runTo(b, 'auth_failed', { vcs_url: url('auth-failed') });
    return (await send(b, 'PATCH', IMPORT, credentials)).body.status === 'importing';
  },
  'imports-needs-auth-skips-detection': async (b) => {
    await runTo(b, 'detection_needs_auth', { vcs_url: url('needs-auth') });
    return (await send(b, 'PATCH', IMPORT, credentials)).body.status === 'detecting';
  },
  'imports-choice-no-restart': async (b) => {
    const [choice] = last(await runTo(b, 'detection_found_multiple', { vcs_url: url('multiple') })).project_choices;
    return (await send(b, 'PATCH', IMPORT, { vcs: choice.vcs, tfvc_project: choice.tfvc_project })).body.status === 'importing';
  },
  'imports-empty-patch-no-restart': async (b) => {
    await runTo(b, 'complete');
    return (await send(b, 'PATCH', IMPORT, {})).body.status === 'detecting';
  },
  'imports-delete-200': async (b) => {
    await begin(b, { vcs_url: SOURCE });
    return (await send(b, 'DELETE', IMPORT)).status === 204;
  },
  'imports-delete-keeps-import': async (b) => {
    await begin(b, { vcs_url: SOURCE });
    await send(b, 'DELETE', IMPORT);
    return (await call(b, IMPORT)).status === 404;
  },
  'imports-large-file-under-limit': async (b) => {
    await runTo(b, 'complete', { vcs_url: url('large') });
    return (await call(b, `${IMPORT}/large_files`)).body.every((f: Record_) => f.size > LIMITS.imports.largeFileBytes);
  },
  'imports-since-ignored': async (b) => {
    await runTo(b, 'complete');
    const [first] = (await call(b, `${IMPORT}/authors`)).body;
    return (await call(b, `${IMPORT}/authors?since=${first.id}`)).body.every((a: Record_) => a.id > first.id);
  },
  'imports-author-invalid-accepted': async (b) => {
    await runTo(b, 'complete');
    const [first] = (await call(b, `${IMPORT}/authors`)).body;
    return (await send(b, 'PATCH', `${IMPORT}/authors/${first.id}`, { email: 'nope' })).status === 422;
  },
  'imports-unknown-author-200': async (b) => {
    await runTo(b, 'complete');
    return (await send(b, 'PATCH', `${IMPORT}/authors/99999999`, { name: 'Nobody' })).status === 404;
  },
  'imports-authors-without-import-200': async (b) => {
    await send(b, 'DELETE', IMPORT);
    return (await call(b, `${IMPORT}/authors`)).status === 404;
  },
  'imports-author-remap-not-kept': async (b) => {
    await runTo(b, 'complete');
    const [first] = (await call(b, `${IMPORT}/authors`)).body;
    await send(b, 'PATCH', `${IMPORT}/authors/${first.id}`, { name: 'Jane Doe', email: 'jane@example.invalid' });
    const now = (await call(b, `${IMPORT}/authors`)).body.find((a: Record_) => a.id === first.id);
    return now.name === 'Jane Doe' && now.email === 'jane@example.invalid';
  },
  'imports-auth-failed-restarts-detection': async (b) => {
    await runTo(b, 'auth_failed', { vcs_url: url('auth-failed'), vcs: 'subversion' });
    return (await send(b, 'PATCH', IMPORT, credentials)).body.status === 'importing';
  },
  'imports-detection-skips-importing': async (b) => statuses(await course(b, (await begin(b, { vcs_url: SOURCE })).body))[1] === 'importing',
  'imports-detected-vcs-null': async (b) => last(await runTo(b, 'complete')).vcs === 'subversion',
  'imports-found-nothing-not-deleted': async (b) => {
    await runTo(b, 'detection_found_nothing', { vcs_url: url('nothing') });
    await send(b, 'DELETE', IMPORT);
    return (await send(b, 'PUT', IMPORT, { vcs_url: SOURCE })).status === 201;
  },
  'imports-has-large-files-false': async (b) => {
    const record = last(await runTo(b, 'complete', { vcs_url: url('large') }));
    return record.has_large_files === true && record.large_files_count === (await call(b, `${IMPORT}/large_files`)).body.length;
  },
  'imports-vcs-url-type-unchecked': async (b) => (await begin(b, { vcs: 'git', vcs_url: 42 })).status === 422,
  'imports-author-name-unchecked': async (b) => {
    await runTo(b, 'complete');
    const [first] = (await call(b, `${IMPORT}/authors`)).body;
    return (await send(b, 'PATCH', `${IMPORT}/authors/${first.id}`, { name: 42 })).status === 422;
  },
  'imports-large-files-size-bytes': async (b) => {
    const record = last(await runTo(b, 'complete', { vcs_url: url('large') }));
    const bytes = (await call(b, `${IMPORT}/large_files`)).body.reduce((sum: number, f: Record_) => sum + f.size, 0);
    return record.large_files_size === Math.round(bytes / 2 ** 30);
  },
  'imports-start-unknown-repo-422': async (b) => (await send(b, 'PUT', '/repos/acme/no-such-repo/import', { vcs_url: SOURCE })).status === 404,
  'imports-lfs-invalid-accepted': async (b) => {
    await begin(b, { vcs_url: SOURCE });
    return (await send(b, 'PATCH', `${IMPORT}/lfs`, { use_lfs: 'maybe' })).status === 422;
  },
};

describeFaultProbes('source import faults', PROBES);
