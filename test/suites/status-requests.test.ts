/**
 * What the per-endpoint checks ask a list for (suites/requests.ts reachForStatus), read from the
 * shared whole run: a check that judges status and headers asks a paged list for one item; the
 * schema check asks for the page it grades; search and lists without per_page are asked as before.
 * Likewise for the import these checks need (suites/requests.ts ensureImport): one that judges status
 * and headers starts it and leaves it running; one that grades what it found follows it until it stops.
 */
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../core/model.js';
import { CATALOGUE, matchEndpoint, type Endpoint } from '../../spec/catalogue.js';
import { CROSS_CUTTING_CHECKS } from '../../suites/cross-cutting.js';
import { wholeRun } from '../helpers/whole-run.js';

const paged = (e: Endpoint) => e.method === 'GET' && e.category !== 'search' && e.params.some((p) => p.name === 'per_page');

/** The query of each request a check sent to the endpoint it is about (its id ends with the endpoint's). */
function queriesOf(run: RunResult, checkId: string, e: Endpoint): URLSearchParams[] {
  const check = run.checks.find((c) => c.id === checkId);
  if (!check) return [];
  const byId = new Map(run.transcript.map((x) => [x.id, x]));
  return check.exchanges.map((id) => byId.get(id)!).filter((x) => {
    const url = new URL(x.request.url);
    return x.request.method === e.method && matchEndpoint(e.method, url.pathname)?.endpoint.id === e.id;
  }).map((x) => new URL(x.request.url).searchParams);
}

describe('the requests of the per-endpoint checks', () => {
  it('ask every paged list, search aside, for one item, in every check of a rule on that list', async () => {
    const run = await wholeRun();
    const seen: string[] = [];
    for (const spec of CROSS_CUTTING_CHECKS) {
      const e = CATALOGUE.find((x) => spec.id.endsWith(`.${x.id}`))!;
      if (!paged(e)) continue;
      const queries = queriesOf(run, spec.id, e);
      if (!queries.length) continue;
      seen.push(spec.id);
      expect(queries.map((q) => q.get('per_page')), spec.id).toEqual(queries.map(() => '1'));
    }
    // Every rule on every paged list: a dozen rules over the event, notification and alert listings.
    expect(seen.length).toBeGreaterThan(50);
  });

  it('leave the schema check its page to grade, and search its shared request', async () => {
    const run = await wholeRun();
    const alerts = CATALOGUE.find((e) => e.id === 'code-scanning.org-alerts')!;
    expect(queriesOf(run, 'schema.code-scanning.org-alerts', alerts).map((q) => q.get('per_page'))).toEqual([null]);
    expect(queriesOf(run, 'rate-limit.core-counts.code-scanning.org-alerts', alerts).map((q) => q.get('per_page'))).toEqual(['1']);
    const issues = CATALOGUE.find((e) => e.id === 'search.issues')!;
    const graded = queriesOf(run, 'schema.search.issues', issues).map(String);
    expect(graded).toHaveLength(1);
    expect(queriesOf(run, 'auth.invalid-401.search.issues', issues).map(String)).toEqual(expect.arrayContaining(graded));
  });

  it('start an import without following it where only status and headers are judged; the schema checks follow it until it stops running', async () => {
    const run = await wholeRun();
    const byId = new Map(run.transcript.map((x) => [x.id, x]));
    const isImport = (x: RunResult['transcript'][number]) => new URL(x.request.url).pathname.endsWith('/import');
    /** For each import the check started (PUT answered 201): the statuses the GETs of it sent right after read. */
    const followed = (checkId: string) => {
      const exchanges = run.checks.find((c) => c.id === checkId)!.exchanges.map((id) => byId.get(id)!).filter(isImport);
      return exchanges.flatMap((x, i) => {
        if (x.request.method !== 'PUT' || x.response?.status !== 201) return [];
        const after = exchanges.slice(i + 1);
        const next = after.findIndex((y) => y.request.method !== 'GET');
        return [after.slice(0, next < 0 ? after.length : next).map((y) => (y.response?.body as { status?: string } | undefined)?.status)];
      });
    };
    // A cancel is put back by starting a new import: each of its sends, the control's and the probes', starts one.
    for (const id of ['auth.no-token.imports.cancel', 'versioning.versions.imports.cancel', 'auth.token-scheme.imports.update']) {
      const starts = followed(id);
      expect(starts.length, id).toBeGreaterThan(0);
      // At most the one read that puts the import back before the next send (CheckContext's again).
      for (const reads of starts) expect(reads.length, id).toBeLessThanOrEqual(1);
    }
    const graded = followed('schema.imports.get');
    expect(graded).toHaveLength(1);
    // Read step by step while it runs, until it reads complete: then the graded read.
    const done = graded[0]!.indexOf('complete');
    expect(done, JSON.stringify(graded)).toBeGreaterThan(0);
    expect(graded[0]!.slice(0, done).every((s) => ['detecting', 'importing', 'mapping', 'pushing'].includes(s!)), JSON.stringify(graded)).toBe(true);
  });
});
