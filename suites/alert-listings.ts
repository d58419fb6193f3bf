/**
 * The alert listing rules on each listing they govern: the organization listing takes the same
 * filters, sort, direction, page size and Link-header cursors as the repository listing
 * (document 2, Endpoints), so each rule is tried there too, and the rules the repository checks
 * leave open (tool_guid, exact page sizes, the `before` cursor) on both.
 */
import { LIMITS } from '../spec/limits.js';
import { DISMISSED_REASONS } from '../spec/vocabulary.js';
import type { Reply } from '../core/client.js';
import { expectRefusal } from '../core/refusal.js';
import type { CheckContext, CheckSpec } from '../core/suite.js';
import { alerts, patchAlert, type Alert } from './alerts-http.js';
import { link, linkPath } from './links.js';

interface Listing {
  /** Prefix of the check ids: `alerts.` or `alerts.org-`. */
  prefix: string;
  what: string;
  needs: NonNullable<CheckSpec['needs']>;
  path(t: CheckContext, query?: string): string;
  /** Identifies an alert across repositories. */
  key(a: Alert): string;
}

const fullName = (a: Alert) => (typeof a.repository === 'object' ? a.repository.full_name : a.repository);

const REPO: Listing = {
  prefix: 'alerts.', what: 'the repository listing', needs: { tokens: ['classic'], resources: ['public_repo'] },
  path: (t, query = '') => `/repos/${t.resources.public_repo}/code-scanning/alerts${query}`,
  key: (a) => String(a.number),
};
const ORG: Listing = {
  prefix: 'alerts.org-', what: 'the organization listing', needs: { tokens: ['classic'], resources: ['org'] },
  path: (t, query = '') => `/orgs/${t.resources.org}/code-scanning/alerts${query}`,
  key: (a) => `${fullName(a)}#${a.number}`,
};

/** A Link URL as a path for the client, provided it stays on the API and points at the same listing. */
function follow(t: CheckContext, l: Listing, url: string): string | undefined {
  const path = linkPath(t, url);
  if (path === undefined) return undefined;
  if (path.split('?')[0] !== l.path(t)) return (t.fail(`the Link URL ${url} leaves ${l.what}`), undefined);
  return path;
}

/** How many pages `everything` reads at most. */
const PAGES = 20;

/** Every alert of a listing, following rel="next" (by page number when no Link is sent), at most PAGES pages; `reuse` as for `alerts`. */
async function everything(t: CheckContext, l: Listing, query: string, reuse = false): Promise<Alert[] | undefined> {
  const seen: Alert[] = [];
  let path: string | undefined = l.path(t, `?per_page=${LIMITS.codeScanning.maxPerPage}${query}`);
  for (let page = 1; path && page <= PAGES; page++) {
    const got: { reply: Reply; items: Alert[] } | undefined = await alerts(t, path, reuse);
    if (!got) return undefined;
    seen.push(...got.items);
    const next = link(got.reply, 'next');
    if (got.items.length < LIMITS.codeScanning.maxPerPage) break;
    path = next ? follow(t, l, next) : l.path(t, `?per_page=${LIMITS.codeScanning.maxPerPage}&page=${page + 1}${query}`);
  }
  return seen;
}

const keys = (l: Listing, items: readonly Alert[]) => items.map((a) => l.key(a)).join(', ');

const stateFilter = (l: Listing): CheckSpec => ({
  id: `${l.prefix}state-filter`, title: `state= lists only alerts in that state (${l.what})`, requirement: 'alerts.state-filter', needs: l.needs,
  async run(t) {
    for (const state of ['open', 'dismissed', 'fixed']) {
      const got = await alerts(t, l.path(t, `?state=${state}&per_page=100`));
      const other = got?.items.filter((a) => a.state !== state) ?? [];
      if (other.length) t.fail(`${l.what}: state=${state} lists ${other.length} alerts in another state, e.g. ${l.key(other[0]!)} ${other[0]!.state}`);
    }
  },
});

/** tool_name= and tool_guid= each list only that tool's alerts; the tools are taken from the listing itself. */
const toolFilters = (l: Listing, which: readonly ('tool_name' | 'tool_guid')[]): CheckSpec => ({
  id: `${l.prefix}${which.length > 1 ? 'tool-filters' : 'tool-guid-filter'}`, title: `${which.join(' and ')} list only that tool's alerts (${l.what})`,
  requirement: 'alerts.tool-filters', needs: l.needs,
  async run(t) {
    const all = await alerts(t, l.path(t, '?per_page=100'), true);
    if (!all) return;
    let probed = 0;
    for (const param of which) {
      const value = (a: Alert) => (param === 'tool_name' ? a.tool?.name : a.tool?.guid);
      const values = [...new Set(all.items.map(value).filter((v): v is string => typeof v === 'string' && v !== ''))];
      // Filtering shows only when some listed alert belongs to another tool.
      const chosen = values.find((v) => all.items.some((a) => value(a) !== v));
      if (chosen === undefined) continue;
      probed += 1;
      const got = await alerts(t, l.path(t, `?${param}=${encodeURIComponent(chosen)}&per_page=100`));
      const other = got?.items.filter((a) => value(a) !== chosen) ?? [];
      if (other.length) t.fail(`${l.what}: ${param}=${chosen} lists ${other.length} alerts of another tool, e.g. ${l.key(other[0]!)} (${JSON.stringify(value(other[0]!))})`);
    }
    if (!probed) t.skip('inconclusive', `${l.what} shows no two tools told apart by ${which.join(' or ')}`);
  },
});

const toolFiltersExclusive = (l: Listing): CheckSpec => ({
  id: `${l.prefix}tool-filters-exclusive`, title: `tool_name with tool_guid together is refused, either alone is not (${l.what})`,
  requirement: 'alerts.tool-filters-exclusive', needs: l.needs,
  async run(t) {
    if (!t.expectStatus(await t.request({ path: l.path(t, '?tool_name=CodeQL') }), [200], `${l.what} with tool_name alone (the control)`)) return;
    const r = await t.request({ path: l.path(t, '?tool_name=CodeQL&tool_guid=conformance') });
    // No status is stated for the refusal: any 4xx but the ones that refuse something else.
    if (r.status < 400 || r.status > 499 || r.status === 406 || r.status === 415 || r.status === 429) t.fail(`${l.what}: tool_name with tool_guid answered ${r.status}, not a refusal`);
    else t.info(`refused with ${r.status}`);
  },
});

const sortDirection = (l: Listing): CheckSpec => ({
  id: `${l.prefix}sort-direction`, title: `Default order is created, descending; direction=asc reverses it (${l.what})`, requirement: 'alerts.direction', needs: l.needs,
  async run(t) {
    for (const [query, sign] of [['', -1], ['&direction=asc', 1], ['&sort=created&direction=desc', -1]] as const) {
      const got = await alerts(t, l.path(t, `?per_page=100${query}`), true);
      const times = got?.items.map((a) => Date.parse(a.created_at)) ?? [];
      if (new Set(times).size < 2) return t.skip('inconclusive', `${l.what} lists fewer than two creation times`);
      const at = times.findIndex((x, i) => i > 0 && Math.sign(x - times[i - 1]!) === -sign);
      if (at > 0) t.fail(`${l.what}, ${query || 'default order'}: alert ${l.key(got!.items[at]!)} created ${got!.items[at]!.created_at} is out of ${sign > 0 ? 'ascending' : 'descending'} order`);
    }
  },
});

/** "per_page integer (max 100, default 30)": a page holds exactly that many while more alerts exist. */
const perPage = (l: Listing): CheckSpec => ({
  id: `${l.prefix}${l === REPO ? 'per-page-exact' : 'per-page'}`, title: `Without per_page a page holds 30 alerts when there are more; never over 100 (${l.what})`,
  requirement: 'alerts.per-page', needs: l.needs,
  async run(t) {
    const { maxPerPage, defaultPerPage } = LIMITS.codeScanning;
    const wide = await alerts(t, l.path(t, `?per_page=${maxPerPage}`));
    const plain = await alerts(t, l.path(t));
    const over = await alerts(t, l.path(t, `?per_page=${maxPerPage + 1}`));
    if (!wide || !plain) return;
    if (over && over.items.length > maxPerPage) t.fail(`${l.what}: per_page=${maxPerPage + 1} listed ${over.items.length} alerts`);
    const expected = Math.min(defaultPerPage, wide.items.length);
    if (plain.items.length !== expected) t.fail(`${l.what}: without per_page, ${plain.items.length} alerts were listed, though per_page=${maxPerPage} lists ${wide.items.length} (default ${defaultPerPage})`);
    if (wide.items.length < defaultPerPage) t.info(`${l.what} has fewer than ${defaultPerPage} alerts: the default was seen only as an upper bound`);
  },
});

/** Cursors from the Link header: rel="next" leads to the following alerts, rel="prev" back to the ones before. */
const cursors = (l: Listing): CheckSpec => ({
  id: `${l.prefix}${l === REPO ? 'cursor-links' : 'cursors'}`, title: `The Link header hands out cursors: next leads on, prev leads back (${l.what})`,
  requirement: 'alerts.cursors', needs: l.needs,
  async run(t) {
    const size = 5;
    const all = await alerts(t, l.path(t, '?per_page=100'));
    if (!all) return;
    if (all.items.length <= 2 * size) return t.skip('inconclusive', `${l.what} has ${all.items.length} alerts: fewer than three pages of ${size}`);
    const pages: { reply: Reply; items: Alert[] }[] = [];
    let path: string | undefined = l.path(t, `?per_page=${size}`);
    for (let i = 0; i < 3 && path; i++) {
      const got = await alerts(t, path);
      if (!got) return;
      const expected = all.items.slice(i * size, (i + 1) * size);
      if (keys(l, got.items) !== keys(l, expected)) return t.fail(`${l.what}: page ${i + 1} reached through the Link header lists ${keys(l, got.items) || 'nothing'}, not ${keys(l, expected)}`);
      pages.push(got);
      const next = link(got.reply, 'next');
      if (!next && i < 2) return t.fail(`${l.what}: ${all.items.length} alerts, yet page ${i + 1} of ${size} has no Link rel="next" (link: ${got.reply.headers.link ?? 'none'})`);
      if (next && !/[?&](after|page)=/.test(next)) t.info(`the next link ${next} carries neither after= nor page=`);
      path = next ? follow(t, l, next) : undefined;
    }
    const prev = link(pages[2]!.reply, 'prev');
    if (!prev) return t.info(`${l.what}: the third page has no rel="prev" link, so the before cursor was not tried`);
    const back = follow(t, l, prev);
    const got = back ? await alerts(t, back) : undefined;
    if (got && keys(l, got.items) !== keys(l, pages[1]!.items)) t.fail(`${l.what}: the third page's rel="prev" (${prev}) lists ${keys(l, got.items) || 'nothing'}, not the second page ${keys(l, pages[1]!.items)}`);
  },
});

/** "page integer (default 1)": page numbers step through the same order as one wide page. */
const pageNumbers = (l: Listing): CheckSpec => ({
  id: `${l.prefix}page-numbers`, title: `page=1 and page=2 list the first and second pages; no page is page 1 (${l.what})`, requirement: 'alerts.page', needs: l.needs,
  async run(t) {
    const size = 5;
    const wide = await alerts(t, l.path(t, '?per_page=100'));
    if (!wide) return;
    if (wide.items.length <= size) return t.skip('inconclusive', `${l.what} has ${wide.items.length} alerts: no second page of ${size}`);
    for (const [query, from] of [[`?per_page=${size}`, 0], [`?per_page=${size}&page=1`, 0], [`?per_page=${size}&page=2`, size]] as const) {
      const got = await alerts(t, l.path(t, query));
      const expected = wide.items.slice(from, from + size);
      if (got && keys(l, got.items) !== keys(l, expected)) t.fail(`${l.what}, ${query}: lists ${keys(l, got.items) || 'nothing'}, not ${keys(l, expected)}`);
    }
  },
});

const orgSortUpdated: CheckSpec = {
  id: 'alerts.org-sort-updated', title: 'sort=updated puts the alert updated last first (the organization listing)', requirement: 'alerts.sort',
  needs: { tokens: ['classic'], resources: ['org', 'public_repo'] }, writes: 'code-scanning',
  async run(t) {
    const repo = t.resources.public_repo!;
    if (!repo.startsWith(`${t.resources.org}/`)) return t.skip('missing-resource', `public_repo ${repo} is not owned by org ${t.resources.org}`);
    const oldest = (await alerts(t, REPO.path(t, '?state=open&sort=created&direction=asc&per_page=1')))?.items[0]?.number;
    if (!oldest) return t.skip('missing-resource', `${repo} has no open alert to update`);
    // Whole-second timestamps: the update waits for the next second so it is the latest.
    await t.sleep(1100);
    const r = await patchAlert(t, `/repos/${repo}/code-scanning/alerts/${oldest}`, { state: 'dismissed', dismissed_reason: 'used in tests' });
    if (!t.expectStatus(r, [200], `dismissing alert ${oldest}`)) return;
    const first = (await alerts(t, ORG.path(t, '?state=dismissed&sort=updated&direction=desc&per_page=1')))?.items[0];
    if (!first || first.number !== oldest || fullName(first) !== repo) {
      t.fail(`after updating ${repo}#${oldest}, state=dismissed&sort=updated&direction=desc lists ${first ? ORG.key(first) : 'nothing'} first`);
    }
  },
};

const repositoryOnlyInOrgListing: CheckSpec = {
  id: 'alerts.repository-only-in-org-listing', title: 'Alerts of the repository listing and the single-alert read carry no repository',
  requirement: 'alerts.repository-in-org-listing', needs: REPO.needs,
  async run(t) {
    const got = await alerts(t, REPO.path(t, '?per_page=100'), true);
    const embedding = got?.items.filter((a) => 'repository' in a) ?? [];
    if (embedding.length) t.fail(`the repository listing embeds repository in ${embedding.length} alerts, e.g. number ${embedding[0]!.number}`);
    const number = got?.items[0]?.number;
    if (number === undefined) return;
    const single = await t.request({ path: REPO.path(t, `/${number}`) });
    if (t.expectStatus(single, [200], `GET alert ${number}`) && 'repository' in (t.body<object>(single) ?? {})) t.fail(`the single alert ${number} embeds repository`);
  },
};

const orgNotFound: CheckSpec = {
  id: 'alerts.org-not-found-404', title: 'The alert listing of an organization that does not exist answers 404', requirement: 'alerts.not-found-404', needs: ORG.needs,
  async run(t) {
    if (!t.expectStatus(await t.request({ path: ORG.path(t) }), [200], `GET ${ORG.path(t)} (the control)`)) return;
    const path = '/orgs/conformance-no-such-org-7f3a/code-scanning/alerts';
    t.expectStatus(await t.request({ path }), [404], `GET ${path}`);
  },
};

const patchNotFound: CheckSpec = {
  id: 'alerts.patch-not-found-404', title: 'Updating an alert number that does not exist answers 404; the same update of an open alert answers 200',
  requirement: 'alerts.not-found-404', needs: REPO.needs, writes: 'code-scanning',
  async run(t) {
    const body = { state: 'dismissed', dismissed_reason: 'used in tests' };
    const open = (await alerts(t, REPO.path(t, '?state=open&per_page=1')))?.items[0]?.number;
    if (!open) return t.skip('missing-resource', `${t.resources.public_repo} has no open alert for the control`);
    const control = await patchAlert(t, REPO.path(t, `/${open}`), body);
    if (control.status !== 200) return t.skip('inconclusive', `the control (dismissing open alert ${open}) answered ${control.status}`);
    t.expectStatus(await patchAlert(t, REPO.path(t, '/2147483647'), body), [404], 'PATCH an alert number that does not exist');
  },
};

/** "covers the default branch of all eligible repositories": each repository of the organization with default-branch alerts appears. */
const orgCoversRepositories: CheckSpec = {
  id: 'alerts.org-covers-repositories', title: 'The organization listing includes alerts of each of its repositories, private ones included',
  requirement: 'alerts.org-default-branch', needs: { tokens: ['classic'], resources: ['org', 'public_repo'] },
  async run(t) {
    const org = t.resources.org!;
    const repos = [t.resources.public_repo, t.resources.private_repo].filter((r): r is string => !!r && r.startsWith(`${org}/`));
    if (!repos.length) return t.skip('missing-resource', `neither public_repo nor private_repo belongs to ${org}`);
    const listed = await everything(t, ORG, '', true);
    if (!listed) return;
    let compared = 0;
    for (const repo of repos) {
      const own = await t.request({ path: `/repos/${repo}/code-scanning/alerts?per_page=1` });
      const first = own.status === 200 && Array.isArray(own.json) ? (own.json[0] as Alert | undefined) : undefined;
      // Only an alert found on a branch can be required of the default-branch listing.
      if (!first || /^refs\/pull\//.test(first.most_recent_instance?.ref ?? '')) continue;
      compared += 1;
      if (!listed.some((a) => fullName(a) === repo)) t.fail(`${repo} lists alert ${first.number}, yet the organization listing has no alert of ${repo}`);
    }
    if (!compared) t.skip('inconclusive', `none of ${repos.join(', ')} lists an alert on a branch`);
  },
};

/** "list alerts across an organization": the organization listing lists the alerts of that organization's repositories only. */
const orgOwnRepositories: CheckSpec = {
  id: 'alerts.org-own-repositories', title: "The organization listing lists only alerts of the organization's own repositories",
  requirement: 'alerts.org-default-branch', needs: ORG.needs,
  async run(t) {
    const listed = await everything(t, ORG, '', true);
    if (!listed) return;
    const named = listed.filter((a) => typeof fullName(a) === 'string');
    if (!named.length) return t.skip('inconclusive', `no alert of ${ORG.what} names its repository's full_name`);
    // Account names are compared without letter case: a server may spell the organization as it was created.
    const owner = `${t.resources.org!.toLowerCase()}/`;
    const foreign = [...new Set(named.map((a) => fullName(a)!).filter((n) => !n.toLowerCase().startsWith(owner)))];
    if (foreign.length) t.fail(`${ORG.what} of ${t.resources.org} lists alerts of ${foreign.slice(0, 4).join(', ')}, not repositories of ${t.resources.org}`);
  },
};

/** "`most_recent_instance` describes the default branch, or the `ref` requested": with no ref, one branch and never a pull request. */
const instanceDefaultBranch: CheckSpec = {
  id: 'alerts.instance-default-branch', title: 'With no ref requested, most_recent_instance describes the default branch (listing and single alert)',
  requirement: 'alerts.most-recent-instance-ref', needs: REPO.needs,
  async run(t) {
    const got = await alerts(t, REPO.path(t, '?per_page=100'), true);
    if (!got) return;
    const refs = [...new Set(got.items.map((a) => a.most_recent_instance?.ref).filter((r): r is string => typeof r === 'string'))];
    if (!refs.length) return t.skip('inconclusive', 'no alert of the listing names most_recent_instance.ref');
    if (refs.length > 1) t.fail(`with no ref requested, most_recent_instance names ${refs.length} refs (${refs.slice(0, 4).join(', ')}), not the one default branch`);
    const pulls = refs.filter((r) => /^refs\/pull\//.test(r));
    if (pulls.length) t.fail(`with no ref requested, most_recent_instance names pull-request refs: ${pulls.slice(0, 3).join(', ')}`);
    const branch = refs.length === 1 ? refs[0] : undefined;
    for (const a of branch ? got.items.slice(0, 10) : []) {
      const single = t.body<Alert>(await t.request({ path: REPO.path(t, `/${a.number}`) }));
      const ref = single?.most_recent_instance?.ref;
      if (ref !== undefined && ref !== branch) t.fail(`GET alert ${a.number}: most_recent_instance.ref is ${ref}, not the default branch ${branch}`);
    }
  },
};

/**
 * The organization listing takes no `ref` and "covers the default branch" of each repository, so
 * its `most_recent_instance` describes that branch: one ref per repository, never a pull request.
 */
const orgInstanceDefaultBranch: CheckSpec = {
  id: 'alerts.org-instance-default-branch', title: "The organization listing's most_recent_instance describes each repository's one default branch",
  requirement: 'alerts.most-recent-instance-ref', needs: ORG.needs,
  async run(t) {
    const listed = await everything(t, ORG, '', true);
    if (!listed) return;
    const refs = new Map<string, Set<string>>();
    for (const a of listed) {
      const ref = a.most_recent_instance?.ref;
      if (typeof ref === 'string') refs.set(fullName(a) ?? '?', (refs.get(fullName(a) ?? '?') ?? new Set()).add(ref));
    }
    if (!refs.size) return t.skip('inconclusive', `no alert of ${ORG.what} names most_recent_instance.ref`);
    for (const [repo, seen] of refs) {
      const pulls = [...seen].filter((r) => /^refs\/pull\//.test(r));
      if (pulls.length) t.fail(`${repo}: most_recent_instance names pull-request refs (${pulls.slice(0, 3).join(', ')}), not the default branch`);
      else if (seen.size > 1) t.fail(`${repo}: most_recent_instance names ${seen.size} refs (${[...seen].slice(0, 4).join(', ')}), not the one default branch`);
    }
  },
};

/** A classic token holding public_repo (and neither security_events nor repo) reads the alerts of a public repository. */
const publicRepoScope: CheckSpec = {
  id: 'alerts.public-repo-scope', title: 'A classic token with only the public_repo scope reads the alerts of a public repository',
  requirement: 'alerts.classic-scopes', needs: { tokens: ['classic_public'], resources: ['public_repo'] },
  async run(t) {
    const scopes = t.profile.tokens?.classic_public?.scopes;
    if (!scopes?.includes('public_repo') || scopes.some((s) => s === 'security_events' || s === 'repo')) {
      return t.skip('missing-token', `tokens.classic_public.scopes is ${JSON.stringify(scopes)}, not public_repo without security_events or repo`);
    }
    const listed = await t.request({ path: REPO.path(t, '?per_page=1'), as: 'classic_public' });
    if (!t.expectStatus(listed, [200], `GET ${REPO.path(t)} as classic_public`)) return;
    const number = Array.isArray(listed.json) ? (listed.json[0] as Alert | undefined)?.number : undefined;
    if (number !== undefined) t.expectStatus(await t.request({ path: REPO.path(t, `/${number}`), as: 'classic_public' }), [200], `GET alert ${number} as classic_public`);
  },
};

/** The classic_bare token, when the profile declares it holds none of the scopes: the probe of the scope checks. */
function bareScopes(t: CheckContext, needed: readonly string[]): string[] {
  const scopes = t.profile.tokens?.classic_bare?.scopes;
  if (!scopes || scopes.some((s) => needed.includes(s))) {
    return t.skip('missing-token', `tokens.classic_bare.scopes is ${JSON.stringify(scopes)}: not declared without ${needed.join(', ')}`);
  }
  return scopes;
}

/** "Classic tokens need scopes": a classic token holding none that code scanning names is refused where the classic token is admitted. */
const scopesRequired: CheckSpec = {
  id: 'alerts.scopes-required', title: 'A classic token holding none of security_events, public_repo and repo is refused (403 or 404) the alert listing and an alert',
  requirement: 'alerts.classic-scopes', needs: { tokens: ['classic', 'classic_bare'], resources: ['public_repo'] },
  async run(t) {
    const scopes = bareScopes(t, ['security_events', 'public_repo', 'repo']);
    // The control: the same reads with the classic token, which holds the scopes.
    const { control } = await expectRefusal(t, { probe: { path: REPO.path(t, '?per_page=1'), as: 'classic_bare' }, control: { path: REPO.path(t, '?per_page=1') }, expected: [403, 404], what: `GET ${REPO.path(t)} with scopes [${scopes.join(', ')}]` });
    const number = Array.isArray(control.json) ? (control.json[0] as Alert | undefined)?.number : undefined;
    if (number === undefined) return t.info(`${REPO.what} lists no alert: the single-alert read was not tried`);
    await expectRefusal(t, { probe: { path: REPO.path(t, `/${number}`), as: 'classic_bare' }, control: { path: REPO.path(t, `/${number}`) }, expected: [403, 404], what: `GET alert ${number} with scopes [${scopes.join(', ')}]` });
  },
};

/** "the organization listing needs `repo` or `security_events`": an owner's token holding neither is refused. */
const orgScopesRequired: CheckSpec = {
  id: 'alerts.org-scopes-required', title: "A classic token holding neither repo nor security_events is refused the organization's alerts, the same owner's classic token is not",
  requirement: 'alerts.org-owner-or-security-manager', needs: { tokens: ['classic', 'classic_bare'], resources: ['org'] },
  async run(t) {
    const scopes = bareScopes(t, ['repo', 'security_events']);
    if (t.profile.tokens?.classic_bare?.login !== t.profile.tokens?.classic?.login) {
      return t.skip('missing-token', 'tokens.classic_bare does not name the classic token\'s login: ownership, not the scope, could decide');
    }
    // "with insufficient permissions the answer is 404 or 403" (document 1, Authentication).
    await expectRefusal(t, {
      probe: { path: ORG.path(t, '?per_page=1'), as: 'classic_bare' }, control: { path: ORG.path(t, '?per_page=1') }, expected: [403, 404],
      what: `GET ${ORG.path(t)} with scopes [${scopes.join(', ')}]`, source: 'document 1, Authentication: "with insufficient permissions the answer is 404 or 403"',
    });
  },
};

/** "ref string (refs/heads/<branch>, <branch>, …)": both spellings of the default branch list the same alerts. */
const refShortForm: CheckSpec = {
  id: 'alerts.ref-short-form', title: 'ref=<branch> lists what ref=refs/heads/<branch> lists', requirement: 'alerts.ref-filter', needs: REPO.needs,
  async run(t) {
    const plain = await alerts(t, REPO.path(t, '?per_page=100'), true);
    const full = plain?.items.map((a) => a.most_recent_instance?.ref).find((r) => r?.startsWith('refs/heads/'));
    if (!full) return t.skip('inconclusive', 'no listed alert names a refs/heads/ branch');
    const branch = full.slice('refs/heads/'.length);
    const long = await alerts(t, REPO.path(t, `?ref=${encodeURIComponent(full)}&per_page=100`));
    const short = await alerts(t, REPO.path(t, `?ref=${encodeURIComponent(branch)}&per_page=100`));
    if (!long || !short) return;
    if (!long.items.length) return t.skip('inconclusive', `ref=${full} lists no alert`);
    if (keys(REPO, short.items) !== keys(REPO, long.items)) t.fail(`ref=${branch} lists ${short.items.length} alerts, ref=${full} ${long.items.length}`);
  },
};

/**
 * Every listed dismissed_reason is accepted: each dismisses an open alert (reopened at the end of the
 * run) and is answered as given, by the PATCH and, where the repository is the organization's, by
 * the organization listing.
 */
const eachDismissedReason: CheckSpec = {
  id: 'alerts.dismissed-reason-each', title: 'Each listed dismissed_reason dismisses an alert and is returned as given (the update and the organization listing)',
  requirement: 'alerts.dismissed-reason-values', needs: REPO.needs, writes: 'code-scanning',
  async run(t) {
    const open = (await alerts(t, REPO.path(t, `?state=open&per_page=${DISMISSED_REASONS.length}`)))?.items ?? [];
    if (open.length < DISMISSED_REASONS.length) return t.skip('missing-resource', `fewer than ${DISMISSED_REASONS.length} open alerts in ${t.resources.public_repo}`);
    const given = new Map<number, string>();
    for (const [i, reason] of DISMISSED_REASONS.entries()) {
      const r = await patchAlert(t, REPO.path(t, `/${open[i]!.number}`), { state: 'dismissed', dismissed_reason: reason });
      if (!t.expectStatus(r, [200], `dismissing alert ${open[i]!.number} with dismissed_reason "${reason}"`)) continue;
      given.set(open[i]!.number, reason);
      const got = (r.json as { dismissed_reason?: unknown } | undefined)?.dismissed_reason;
      if (got !== reason) t.fail(`dismissed with "${reason}", the alert answers dismissed_reason ${JSON.stringify(got)}`);
    }
    const repo = t.resources.public_repo!;
    if (!t.resources.org || !repo.startsWith(`${t.resources.org}/`)) return t.info(`public_repo ${repo} is not owned by org ${t.resources.org ?? '(none)'}: the organization listing was not read`);
    const listed = await everything(t, ORG, '&state=dismissed');
    for (const [number, reason] of given) {
      const a = listed?.find((x) => x.number === number && fullName(x) === repo) as (Alert & { dismissed_reason?: unknown }) | undefined;
      // Requiredness is not shown: only a reason the listing gives is judged.
      if (a && a.dismissed_reason !== undefined && a.dismissed_reason !== reason) t.fail(`${ORG.what} (state=dismissed) gives ${repo}#${number}, dismissed with "${reason}", dismissed_reason ${JSON.stringify(a.dismissed_reason)}`);
    }
  },
};

/** "the caller must be an organization owner or security manager": the second half, with a second account. */
const orgSecurityManager: CheckSpec = {
  id: 'alerts.org-security-manager', title: "A security manager who does not own the organization lists its alerts",
  requirement: 'alerts.org-owner-or-security-manager', needs: { tokens: ['security_manager'], resources: ['org'] },
  async run(t) {
    const scopes = t.profile.tokens?.security_manager?.scopes;
    if (scopes && !scopes.some((s) => s === 'repo' || s === 'security_events')) {
      return t.skip('missing-token', `tokens.security_manager.scopes is ${JSON.stringify(scopes)}, without repo or security_events`);
    }
    const r = await t.request({ path: ORG.path(t, '?per_page=1'), as: 'security_manager' });
    t.expectStatus(r, [200], `GET ${ORG.path(t)} as the security manager`);
  },
};

/** Appended to the code-scanning suite. */
export const alertListingChecks: CheckSpec[] = [
  stateFilter(ORG), toolFilters(ORG, ['tool_name', 'tool_guid']), toolFilters(REPO, ['tool_guid']), toolFiltersExclusive(ORG),
  sortDirection(ORG), perPage(REPO), perPage(ORG), cursors(REPO), cursors(ORG), pageNumbers(REPO), pageNumbers(ORG),
  repositoryOnlyInOrgListing, instanceDefaultBranch, orgInstanceDefaultBranch, refShortForm, eachDismissedReason, orgSecurityManager, publicRepoScope, scopesRequired, orgScopesRequired, orgNotFound, patchNotFound, orgCoversRepositories, orgOwnRepositories, orgSortUpdated,
];
