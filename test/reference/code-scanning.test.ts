/** Document 2, code scanning alerts: each stated rule over HTTP, then each named fault breaking its rule. */
import { describe, expect, it } from 'vitest';
import { endpointById } from '../../spec/catalogue.js';
import { ALERT_STATES, DISMISSED_REASONS, VALIDATION_FAILED } from '../../spec/vocabulary.js';
import { TOOLS } from '../../reference/areas/code-scanning/corpus.js';
import { call, TOKENS, useReference, type CallOptions, type Reply } from '../helpers/reference.js';
import { describeFaultProbes, type Probe } from '../helpers/faults.js';

const WIDGETS = '/repos/acme/widgets/code-scanning/alerts';
const ARCHIVED = '/repos/acme/archive-2019/code-scanning/alerts';
const PLAIN = '/repos/acme/plain/code-scanning/alerts';
const ORG = '/orgs/acme/code-scanning/alerts';
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const CAP = endpointById('code-scanning.repo-alerts').perPage!;
const ALERT_FIELDS = ['number', 'created_at', 'url', 'html_url', 'instances_url', 'state', 'fixed_at', 'dismissed_by', 'dismissed_at',
  'dismissed_reason', 'rule', 'tool', 'most_recent_instance'];
const INSTANCE_FIELDS = ['ref', 'analysis_key', 'category', 'environment', 'state', 'commit_sha', 'message', 'location', 'classifications'];

type Alert = Record<string, any>;

/** The URL of a Link relation, relative to the API root. */
function rel(r: Reply, name: string, base: string): string | undefined {
  const m = new RegExp(`<([^>]+)>; rel="${name}"`).exec(r.headers.link ?? '');
  return m ? m[1]!.slice(base.length) : undefined;
}

/** Every item of a listing, following rel="next". */
async function all(base: string, path: string, opts?: CallOptions): Promise<Alert[]> {
  const items: Alert[] = [];
  for (let next: string | undefined = path; next;) {
    const r = await call(base, next, opts);
    expect(r.status).toBe(200);
    items.push(...r.body);
    next = rel(r, 'next', base);
  }
  return items;
}

const created = (a: Alert) => Date.parse(a.created_at);
const patch = (base: string, path: string, body: unknown, token?: string) => call(base, path, { method: 'PATCH', body, ...(token ? { token } : {}) });
async function firstOpen(base: string, list = WIDGETS): Promise<number> {
  return (await call(base, `${list}?state=open&per_page=1`)).body[0].number;
}

describe('code scanning: listing a repository', () => {
  const ref = useReference();

  it('renders the spec fields, without repository, with values from the vocabulary', async () => {
    const r = await ref.get(WIDGETS);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(CAP.default!);
    for (const a of r.body as Alert[]) {
      expect(Object.keys(a).sort()).toEqual([...ALERT_FIELDS].sort());
      expect(ALERT_STATES).toContain(a.state);
      expect([null, ...DISMISSED_REASONS]).toContain(a.dismissed_reason);
      expect(a.created_at).toMatch(TIMESTAMP);
      expect(Object.keys(a.rule).sort()).toEqual(['description', 'id', 'name', 'severity', 'tags']);
      expect(Object.keys(a.tool).sort()).toEqual(['guid', 'name', 'version']);
      expect(Object.keys(a.most_recent_instance).sort()).toEqual([...INSTANCE_FIELDS].sort());
      expect(typeof a.most_recent_instance.environment).toBe('string');
      expect(Object.keys(a.most_recent_instance.location).sort()).toEqual(['end_column', 'end_line', 'path', 'start_column', 'start_line']);
    }
  });

  it('dismissed alerts carry who, when and why; fixed ones fixed_at; open ones neither', async () => {
    const alerts = await all(ref.url, `${WIDGETS}?per_page=100`);
    for (const a of alerts) {
      if (a.state === 'dismissed') {
        expect(typeof a.dismissed_by.login).toBe('string');
        expect(a.dismissed_at).toMatch(TIMESTAMP);
        expect(DISMISSED_REASONS).toContain(a.dismissed_reason);
      } else {
        expect([a.dismissed_by, a.dismissed_at, a.dismissed_reason]).toEqual([null, null, null]);
      }
      if (a.state === 'fixed') expect(a.fixed_at).toMatch(TIMESTAMP);
      else expect(a.fixed_at).toBeNull();
    }
    expect(new Set(alerts.map((a) => a.state))).toEqual(new Set(ALERT_STATES));
  });

  it('sorts by creation, newest first, by default; direction=asc reverses', async () => {
    const desc = (await ref.get(`${WIDGETS}?per_page=50`)).body.map(created);
    expect(desc).toEqual([...desc].sort((a, b) => b - a));
    const asc = (await ref.get(`${WIDGETS}?per_page=50&direction=asc`)).body.map(created);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(asc[0]).toBeLessThan(desc[0]);
  });

  it('caps per_page at 100 (larger values clamped) and defaults to 30', async () => {
    const big = await ref.get(`${WIDGETS}?per_page=1000`);
    expect(big.status).toBe(200);
    expect(big.body).toHaveLength(CAP.max);
    expect(rel(big, 'next', ref.url)).toBeDefined();
  });

  it('hands out after/before cursors in the Link header that return the adjacent pages', async () => {
    const twenty = (await ref.get(`${WIDGETS}?per_page=20`)).body.map((a: Alert) => a.number);
    const first = await ref.get(`${WIDGETS}?per_page=10`);
    const next = rel(first, 'next', ref.url)!;
    expect(next).toMatch(/[?&]after=/);
    expect(rel(first, 'prev', ref.url)).toBeUndefined();
    const second = await ref.get(next);
    expect([...first.body, ...second.body].map((a: Alert) => a.number)).toEqual(twenty);
    const prev = rel(second, 'prev', ref.url)!;
    expect(prev).toMatch(/[?&]before=/);
    expect((await ref.get(prev)).body.map((a: Alert) => a.number)).toEqual(first.body.map((a: Alert) => a.number));
    const everything = await all(ref.url, `${WIDGETS}?per_page=7`);
    expect(new Set(everything.map((a) => a.number)).size).toBe(everything.length);
    expect(everything.length).toBeGreaterThan(CAP.max);
  });

  it('serves page numbers with page links when page is given', async () => {
    const twenty = (await ref.get(`${WIDGETS}?per_page=20`)).body.map((a: Alert) => a.number);
    const page2 = await ref.get(`${WIDGETS}?per_page=10&page=2`);
    expect(page2.body.map((a: Alert) => a.number)).toEqual(twenty.slice(10));
    expect(rel(page2, 'next', ref.url)).toMatch(/[?&]page=3/);
  });

  it('refuses a bad cursor, before with after, and out-of-vocabulary filters with 422', async () => {
    for (const q of ['after=garbage', 'before=x&after=y', 'state=closed', 'sort=name', 'direction=up']) {
      const r = await ref.get(`${WIDGETS}?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.message).toBe(VALIDATION_FAILED);
    }
  });

  it('filters by state', async () => {
    for (const state of ALERT_STATES) {
      const alerts = await all(ref.url, `${WIDGETS}?state=${state}&per_page=100`);
      expect(alerts.length).toBeGreaterThan(0);
      expect(alerts.every((a) => a.state === state)).toBe(true);
    }
  });

  it('filters by tool_name or tool_guid, and refuses both together', async () => {
    const alerts = await all(ref.url, `${WIDGETS}?per_page=100`);
    const guid = alerts.find((a) => a.tool.guid !== null)!.tool;
    const byName = await all(ref.url, `${WIDGETS}?per_page=100&tool_name=${guid.name}`);
    expect(byName.length).toBeGreaterThan(0);
    expect(byName.length).toBeLessThan(alerts.length);
    expect(byName.every((a) => a.tool.name === guid.name)).toBe(true);
    const byGuid = await all(ref.url, `${WIDGETS}?per_page=100&tool_guid=${guid.guid}`);
    expect(byGuid.map((a) => a.number)).toEqual(byName.map((a) => a.number));
    const both = await ref.get(`${WIDGETS}?tool_name=${guid.name}&tool_guid=${guid.guid}`);
    expect(both.status).toBe(422);
    expect(both.body.message).toBe(VALIDATION_FAILED);
  });

  it('filters by ref in each of its three forms; most_recent_instance describes that ref', async () => {
    const main = await all(ref.url, `${WIDGETS}?per_page=100`);
    expect(main.every((a) => a.most_recent_instance.ref === 'refs/heads/main')).toBe(true);
    expect((await all(ref.url, `${WIDGETS}?per_page=100&ref=main`)).map((a) => a.number)).toEqual(main.map((a) => a.number));
    expect((await all(ref.url, `${WIDGETS}?per_page=100&ref=refs/heads/main`)).map((a) => a.number)).toEqual(main.map((a) => a.number));
    const pull = await all(ref.url, `${WIDGETS}?per_page=100&ref=refs/pull/1/merge`);
    expect(pull.length).toBeGreaterThan(0);
    expect(pull.every((a) => a.most_recent_instance.ref === 'refs/pull/1/merge')).toBe(true);
    const onMain = new Set(main.map((a) => a.number));
    expect(pull.some((a) => !onMain.has(a.number))).toBe(true);
    expect((await ref.get(`${WIDGETS}?ref=no-such-branch`)).body).toEqual([]);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const r = await ref.get(WIDGETS);
    expect((await ref.get(WIDGETS, { headers: { 'if-none-match': r.headers.etag! } })).status).toBe(304);
  });

  it('answers 403 without advanced security, 404 for unknown or unreadable repositories', async () => {
    expect((await ref.get(PLAIN)).status).toBe(403);
    expect((await ref.get(`${PLAIN}/1`)).status).toBe(403);
    expect((await ref.get('/repos/acme/nope/code-scanning/alerts')).status).toBe(404);
    expect((await ref.get('/repos/hubot/private-notes/code-scanning/alerts')).status).toBe(404);
    expect((await ref.get('/repos/acme/secret/code-scanning/alerts')).status).toBe(200);
  });
});

describe('code scanning: organization listing', () => {
  const ref = useReference();

  it('lists default-branch alerts of the organization repositories, each with repository', async () => {
    const alerts = await all(ref.url, `${ORG}?per_page=100`);
    expect(alerts.every((a) => a.repository.full_name.startsWith('acme/'))).toBe(true);
    expect(alerts.every((a) => a.most_recent_instance.ref === 'refs/heads/main')).toBe(true);
    expect(Object.keys(alerts[0]!).sort()).toEqual([...ALERT_FIELDS, 'repository'].sort());
    const repos = new Set(alerts.map((a) => a.repository.full_name));
    expect(repos).toEqual(new Set(['acme/widgets', 'acme/secret', 'acme/archive-2019']));
    const widgets = await all(ref.url, `${WIDGETS}?per_page=100`);
    expect(alerts.filter((a) => a.repository.full_name === 'acme/widgets').length).toBe(widgets.length);
  });

  it('applies the same filters and cursors', async () => {
    const dismissed = await all(ref.url, `${ORG}?state=dismissed&per_page=5`);
    expect(dismissed.length).toBeGreaterThan(5);
    expect(dismissed.every((a) => a.state === 'dismissed')).toBe(true);
    const asc = (await ref.get(`${ORG}?direction=asc&per_page=40`)).body.map(created);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect((await ref.get(`${ORG}?tool_name=CodeQL&tool_guid=x`)).status).toBe(422);
  });

  it('is open to owners (and installations on the organization), 404 to others and for unknown organizations', async () => {
    expect((await ref.get('/orgs/globex/code-scanning/alerts')).status).toBe(404);
    expect((await ref.get('/orgs/nope/code-scanning/alerts')).status).toBe(404);
    expect((await ref.get(ORG, { token: TOKENS.appInstallation })).status).toBe(200);
  });
});

describe('code scanning: single alert', () => {
  const ref = useReference();

  it('adds the rule details of the single-alert form and omits the deprecated instances', async () => {
    const r = await ref.get(`${WIDGETS}/1`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([...ALERT_FIELDS].sort());
    expect(Object.keys(r.body.rule).sort()).toEqual(
      ['description', 'full_description', 'help', 'help_uri', 'id', 'name', 'security_severity_level', 'severity', 'tags']);
    expect(r.body.url).toMatch(/\/code-scanning\/alerts\/1$/);
  });

  it('answers 404 for an unknown alert number', async () => {
    expect((await ref.get(`${WIDGETS}/99999`)).status).toBe(404);
  });
});

describe('code scanning: updating an alert', () => {
  const ref = useReference();

  it('dismisses with a reason (who, when, why set) and reopens (all cleared)', async () => {
    const n = await firstOpen(ref.url);
    const dismissed = await patch(ref.url, `${WIDGETS}/${n}`, { state: 'dismissed', dismissed_reason: DISMISSED_REASONS[0] });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.state).toBe('dismissed');
    expect(dismissed.body.dismissed_by.login).toBe('mona');
    expect(dismissed.body.dismissed_at).toMatch(TIMESTAMP);
    expect(dismissed.body.dismissed_reason).toBe(DISMISSED_REASONS[0]);
    expect((await ref.get(`${WIDGETS}/${n}`)).body.state).toBe('dismissed');
    const reopened = await patch(ref.url, `${WIDGETS}/${n}`, { state: 'open' });
    expect(reopened.status).toBe(200);
    expect([reopened.body.state, reopened.body.dismissed_by, reopened.body.dismissed_at, reopened.body.dismissed_reason])
      .toEqual(['open', null, null, null]);
  });

  it('refuses dismissal without a reason, or with a reason outside the list, leaving the alert unchanged', async () => {
    const n = await firstOpen(ref.url);
    for (const body of [{ state: 'dismissed' }, { state: 'dismissed', dismissed_reason: null }, { state: 'dismissed', dismissed_reason: 'bored' }]) {
      const r = await patch(ref.url, `${WIDGETS}/${n}`, body);
      expect(r.status).toBe(422);
      expect(r.body.message).toBe(VALIDATION_FAILED);
    }
    expect((await ref.get(`${WIDGETS}/${n}`)).body.state).toBe('open');
  });

  it('refuses a state other than open or dismissed, and a missing state', async () => {
    const n = await firstOpen(ref.url);
    for (const body of [{ state: 'fixed' }, { state: 'closed' }, {}]) expect((await patch(ref.url, `${WIDGETS}/${n}`, body)).status).toBe(422);
    expect((await ref.get(`${WIDGETS}/${n}`)).body.state).toBe('open');
  });

  it('answers 403 for archived repositories and repositories without advanced security, 404 for unknown alerts', async () => {
    const archived = await firstOpen(ref.url, ARCHIVED);
    expect((await patch(ref.url, `${ARCHIVED}/${archived}`, { state: 'dismissed', dismissed_reason: DISMISSED_REASONS[1] })).status).toBe(403);
    expect((await ref.get(`${ARCHIVED}/${archived}`)).body.state).toBe('open');
    expect((await patch(ref.url, `${PLAIN}/1`, { state: 'open' })).status).toBe(403);
    expect((await patch(ref.url, `${WIDGETS}/99999`, { state: 'open' })).status).toBe(404);
  });

  it('answers 403 to a caller without push access; an installation dismisses with dismissed_by null', async () => {
    const n = await firstOpen(ref.url);
    expect((await patch(ref.url, `${WIDGETS}/${n}`, { state: 'dismissed', dismissed_reason: DISMISSED_REASONS[2] }, TOKENS.classicPublic)).status).toBe(403);
    const r = await patch(ref.url, `${WIDGETS}/${n}`, { state: 'dismissed', dismissed_reason: DISMISSED_REASONS[2] }, TOKENS.appInstallation);
    expect(r.status).toBe(200);
    expect(r.body.dismissed_by).toBeNull();
    expect(r.body.dismissed_reason).toBe(DISMISSED_REASONS[2]);
  });

  it('sort=updated puts the most recently changed alert first', async () => {
    const oldest = (await ref.get(`${WIDGETS}?state=open&direction=asc&per_page=1`)).body[0].number;
    await patch(ref.url, `${WIDGETS}/${oldest}`, { state: 'dismissed', dismissed_reason: DISMISSED_REASONS[0] });
    expect((await ref.get(`${WIDGETS}?sort=updated&per_page=1`)).body[0].number).toBe(oldest);
    expect((await ref.get(`${WIDGETS}?per_page=1`)).body[0].number).not.toBe(oldest);
  });
});

/** Each probe holds against the correct reference and fails against one started with its fault. */
const numbers = (r: Reply) => (r.body as Alert[]).map((a) => a.number);
const dismiss = (base: string, n: number, body: Record<string, unknown> = { state: 'dismissed', dismissed_reason: DISMISSED_REASONS[0] }) =>
  patch(base, `${WIDGETS}/${n}`, body);

/** The read's ETag sent back in If-None-Match answers 304. */
const notModified = async (b: string, path: string) =>
  (await call(b, path, { headers: { 'if-none-match': (await call(b, path)).headers.etag! } })).status === 304;

const PROBES: Record<string, Probe> = {
  'alerts-no-ghas-listing-200': async (b) => (await call(b, PLAIN)).status === 403,
  'alerts-no-ghas-read-404': async (b) => (await call(b, `${PLAIN}/1`)).status === 403,
  'alerts-no-ghas-patch-404': async (b) => (await patch(b, `${PLAIN}/1`, { state: 'dismissed', dismissed_reason: DISMISSED_REASONS[1] })).status === 403,
  'alerts-patch-state-optional': async (b) => (await dismiss(b, await firstOpen(b), { dismissed_reason: DISMISSED_REASONS[1] })).status === 422,
  'alerts-org-other-orgs': async (b) => (await all(b, `${ORG}?per_page=100`)).every((a) => a.repository.full_name.startsWith('acme/')),
  'alerts-org-reason-identifier': async (b) => {
    const n = await firstOpen(b);
    await dismiss(b, n, { state: 'dismissed', dismissed_reason: "won't fix" });
    const listed = (await all(b, `${ORG}?state=dismissed&per_page=100`)).find((a) => a.number === n && a.repository.full_name === 'acme/widgets');
    return listed?.dismissed_reason === "won't fix";
  },
  'alerts-archived-patch-accepted': async (b) =>
    (await patch(b, `${ARCHIVED}/${await firstOpen(b, ARCHIVED)}`, { state: 'dismissed', dismissed_reason: DISMISSED_REASONS[0] })).status === 403,
  'alerts-unknown-alert-500': async (b) => (await call(b, `${WIDGETS}/99999`)).status === 404,
  'code-scanning-repo-alerts-if-none-match-ignored': async (b) => notModified(b, WIDGETS),
  'code-scanning-alert-if-none-match-ignored': async (b) => notModified(b, `${WIDGETS}/${numbers(await call(b, WIDGETS))[0]}`),
  'alerts-org-no-repository': async (b) => (await call(b, ORG)).body.every((a: Alert) => typeof a.repository?.full_name === 'string'),
  'alerts-org-pull-request-alerts': async (b) => (await all(b, `${ORG}?per_page=100`)).every((a) => a.most_recent_instance.ref === 'refs/heads/main'),
  'alerts-org-any-member': async (b) => (await call(b, '/orgs/globex/code-scanning/alerts')).status === 404,
  'alerts-state-filter-ignored': async (b) => (await call(b, `${WIDGETS}?state=fixed`)).body.every((a: Alert) => a.state === 'fixed'),
  'alerts-tool-name-ignored': async (b) => (await call(b, `${WIDGETS}?tool_name=CodeQL`)).body.every((a: Alert) => a.tool.name === 'CodeQL'),
  'alerts-tool-filters-combined': async (b) => (await call(b, `${WIDGETS}?tool_name=CodeQL&tool_guid=x`)).status === 422,
  'alerts-ref-filter-ignored': async (b) => (await call(b, `${WIDGETS}?ref=no-such-branch`)).body.length === 0,
  'alerts-instance-ignores-ref': async (b) =>
    (await call(b, `${WIDGETS}?ref=refs/pull/1/merge`)).body.every((a: Alert) => a.most_recent_instance.ref === 'refs/pull/1/merge'),
  'alerts-sort-ignored': async (b) => {
    const oldest = (await call(b, `${WIDGETS}?state=open&direction=asc&per_page=1`)).body[0].number;
    await dismiss(b, oldest);
    return (await call(b, `${WIDGETS}?sort=updated&per_page=1`)).body[0].number === oldest;
  },
  'alerts-direction-ignored': async (b) => {
    const items = (await call(b, WIDGETS)).body.map(created);
    return items[0] > items[items.length - 1];
  },
  'alerts-per-page-uncapped': async (b) => (await call(b, `${WIDGETS}?per_page=1000`)).body.length === CAP.max,
  'alerts-cursors-broken': async (b) => {
    const first = await call(b, `${WIDGETS}?per_page=10`);
    const second = await call(b, rel(first, 'next', b)!);
    return !numbers(second).some((n) => numbers(first).includes(n));
  },
  'alerts-single-rule-tags-string': async (b) => Array.isArray((await call(b, `${WIDGETS}/1`)).body.rule.tags),
  'alerts-patch-any-state': async (b) => (await dismiss(b, await firstOpen(b), { state: 'fixed' })).status === 422,
  'alerts-dismiss-without-reason': async (b) => (await dismiss(b, await firstOpen(b), { state: 'dismissed' })).status === 422,
  'alerts-reason-outside-enum': async (b) => (await dismiss(b, await firstOpen(b), { state: 'dismissed', dismissed_reason: 'bored' })).status === 422,
  'alerts-dismissal-fields-unset': async (b) => {
    const r = await dismiss(b, await firstOpen(b));
    return r.body.dismissed_by?.login === 'mona' && typeof r.body.dismissed_at === 'string' && r.body.dismissed_reason === DISMISSED_REASONS[0];
  },
  'alerts-reopen-keeps-dismissal': async (b) => {
    const n = await firstOpen(b);
    await dismiss(b, n);
    const r = await dismiss(b, n, { state: 'open' });
    return r.body.dismissed_by === null && r.body.dismissed_at === null && r.body.dismissed_reason === null;
  },
  'alerts-timestamps-millis': async (b) => (await call(b, WIDGETS)).body.every((a: Alert) => TIMESTAMP.test(a.created_at)),
  'alerts-unknown-org-200': async (b) => (await call(b, '/orgs/no-such-org/code-scanning/alerts')).status === 404,
  'alerts-patch-unknown-422': async (b) => (await dismiss(b, 99999)).status === 404,
  'alerts-repo-listing-repository': async (b) => (await call(b, WIDGETS)).body.every((a: Alert) => !('repository' in a)),
  'alerts-org-omits-private-repos': async (b) => (await all(b, `${ORG}?per_page=100`)).some((a) => a.repository.full_name === 'acme/secret'),
  'alerts-org-state-filter-ignored': async (b) => (await call(b, `${ORG}?state=fixed&per_page=100`)).body.every((a: Alert) => a.state === 'fixed'),
  'alerts-org-tool-name-ignored': async (b) => (await call(b, `${ORG}?tool_name=CodeQL&per_page=100`)).body.every((a: Alert) => a.tool.name === 'CodeQL'),
  'alerts-tool-guid-ignored': async (b) => {
    const guid = TOOLS.find((t) => t.guid)!.guid;
    return (await call(b, `${WIDGETS}?tool_guid=${guid}&per_page=100`)).body.every((a: Alert) => a.tool.guid === guid);
  },
  'alerts-org-tool-filters-combined': async (b) => (await call(b, `${ORG}?tool_name=CodeQL&tool_guid=x`)).status === 422,
  'alerts-org-sort-ignored': async (b) => {
    const oldest = (await call(b, `${WIDGETS}?state=open&direction=asc&per_page=1`)).body[0].number;
    await dismiss(b, oldest);
    const first = (await call(b, `${ORG}?sort=updated&per_page=1`)).body[0];
    return first.number === oldest && first.repository.full_name === 'acme/widgets';
  },
  'alerts-org-direction-ignored': async (b) => {
    const items = (await call(b, ORG)).body.map(created);
    return items[0] > items[items.length - 1];
  },
  'alerts-org-per-page-uncapped': async (b) => (await call(b, `${ORG}?per_page=1000`)).body.length === CAP.max,
  'alerts-per-page-default-10': async (b) => (await call(b, WIDGETS)).body.length === CAP.default,
  'alerts-org-per-page-default-10': async (b) => (await call(b, ORG)).body.length === CAP.default,
  'alerts-org-cursors-broken': async (b) => {
    const first = await call(b, `${ORG}?per_page=10`);
    const second = await call(b, rel(first, 'next', b)!);
    return second.body.length > 0 && !second.body.some((a: Alert) => first.body.some((f: Alert) => f.number === a.number && f.repository.full_name === a.repository.full_name));
  },
  'alerts-before-cursor-ignored': async (b) => {
    const first = await call(b, `${WIDGETS}?per_page=10`);
    const second = await call(b, rel(first, 'next', b)!);
    const third = await call(b, rel(second, 'next', b)!);
    return numbers(await call(b, rel(third, 'prev', b)!)).join() === numbers(second).join();
  },
  'alerts-no-link-header': async (b) => /rel="next"/.test((await call(b, `${WIDGETS}?per_page=10`)).headers.link ?? ''),
  'alerts-org-no-link-header': async (b) => /rel="next"/.test((await call(b, `${ORG}?per_page=10`)).headers.link ?? ''),
  'alerts-instance-latest-ref': async (b) => (await call(b, `${WIDGETS}?per_page=100`)).body.every((a: Alert) => a.most_recent_instance.ref === 'refs/heads/main'),
  'alerts-short-ref-unknown': async (b) => numbers(await call(b, `${WIDGETS}?ref=main&per_page=100`)).join() === numbers(await call(b, `${WIDGETS}?ref=refs/heads/main&per_page=100`)).join()
    && (await call(b, `${WIDGETS}?ref=main`)).body.length > 0,
  'alerts-false-positive-refused': async (b) => (await dismiss(b, await firstOpen(b), { state: 'dismissed', dismissed_reason: 'false positive' })).status === 200,
  'alerts-org-security-manager-refused': async (b) => (await call(b, ORG, { token: TOKENS.securityManager })).status === 200,
  'alerts-page-ignored': async (b) => numbers(await call(b, `${WIDGETS}?per_page=5&page=2`)).join() === numbers(await call(b, `${WIDGETS}?per_page=10`)).slice(5).join(),
  'alerts-org-page-ignored': async (b) => {
    const key = (r: Reply) => (r.body as Alert[]).map((a) => `${a.repository.full_name}#${a.number}`);
    return key(await call(b, `${ORG}?per_page=5&page=2`)).join() === key(await call(b, `${ORG}?per_page=10`)).slice(5).join();
  },
  'alerts-scope-ignored': async (b) => [403, 404].includes((await call(b, WIDGETS, { token: TOKENS.classicBare })).status),
  'alerts-org-scope-ignored': async (b) => [403, 404].includes((await call(b, ORG, { token: TOKENS.classicBare })).status),
  'alerts-public-repo-scope-refused': async (b) => (await call(b, WIDGETS, { token: TOKENS.classicPublic })).status === 200,
};

describeFaultProbes('code scanning faults', PROBES);
