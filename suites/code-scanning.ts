/** Code scanning alerts: refusals, the organization listing, filters, ordering, page size, cursors, and (with writes allowed) the PATCH transitions. */
import { LIMITS } from '../spec/limits.js';
import type { Reply } from '../core/client.js';
import { expectRefusal } from '../core/refusal.js';
import type { CheckContext, CheckSpec, Suite } from '../core/suite.js';
import { alertListingChecks } from './alert-listings.js';
import { alerts, patchAlert, type Alert, type AlertState } from './alerts-http.js';
import { link, linkPath } from './links.js';

const alertsPath = (t: CheckContext, query = '') => `/repos/${t.resources.public_repo}/code-scanning/alerts${query}`;

/** An open alert of a repository to exercise transitions on, journaled so it is reopened at the end. */
async function openAlert(t: CheckContext, repo: string): Promise<number> {
  const got = await alerts(t, `/repos/${repo}/code-scanning/alerts?state=open&per_page=1`);
  const number = got?.items[0]?.number;
  if (!number) return t.skip('missing-resource', `${repo} has no open alert to transition`);
  return number;
}

const patch = (t: CheckContext, repo: string, number: number, body: Record<string, unknown>) =>
  patchAlert(t, `/repos/${repo}/code-scanning/alerts/${number}`, body);

async function stateOf(t: CheckContext, repo: string, number: number): Promise<string | undefined> {
  const r = await t.request({ path: `/repos/${repo}/code-scanning/alerts/${number}` });
  return (r.json as AlertState | undefined)?.state;
}

/** A valid dismissal: the control of the refused PATCHes. */
const DISMISS = { state: 'dismissed', dismissed_reason: "won't fix" };

/** A valid dismissal of an open alert, reopened at once: the control of a refused PATCH. */
async function dismissAndReopen(t: CheckContext, repo: string, number: number): Promise<Reply> {
  const r = await patch(t, repo, number, DISMISS);
  if (r.status === 200) await patch(t, repo, number, { state: 'open' });
  return r;
}

/**
 * A refusal the spec lists no status for: any 4xx but 406, 415 and 429 counts, the code seen is
 * information, and the alert must not change. The control, a valid dismissal, comes after.
 */
async function refused(t: CheckContext, repo: string, number: number, body: Record<string, unknown>, what: string): Promise<void> {
  const r = await patch(t, repo, number, body);
  const after = await stateOf(t, repo, number);
  if (after !== 'open') t.fail(`${what} left the alert ${after}, not open`);
  const { verdict } = await expectRefusal(t, { probe: r, control: await dismissAndReopen(t, repo, number), what });
  if (verdict === 'refused') t.info(`${what}: ${r.status}`);
}

const writeCheck = (id: string, title: string, requirement: string, run: CheckSpec['run'], resources: CheckSpec['needs'] = { tokens: ['classic'], resources: ['public_repo'] }): CheckSpec =>
  ({ id, title, requirement, needs: resources, writes: 'code-scanning', run });

const repoCheck = (id: string, title: string, requirement: string, run: CheckSpec['run']): CheckSpec =>
  ({ id, title, requirement, needs: { tokens: ['classic'], resources: ['public_repo'] }, run });

export const codeScanningSuite: Suite = {
  name: 'code-scanning',
  description: 'Alert listings and reads: refusals, the organization form, filters, ordering, page size, cursors.',
  checks: () => [
    {
      id: 'alerts.no-advanced-security-403', title: 'A repository without advanced security answers 403 to its alert listing and to an alert read', requirement: 'alerts.no-advanced-security-403',
      needs: { tokens: ['classic'], resources: ['public_repo', 'no_advanced_security_repo'] },
      async run(t) {
        const path = `/repos/${t.resources.no_advanced_security_repo}/code-scanning/alerts`;
        // The control: the same listing of a repository with advanced security.
        const { control } = await expectRefusal(t, { probe: { path }, control: { path: alertsPath(t, '?per_page=1') }, expected: [403], what: `GET ${path}` });
        // "(alert listing and reads)": an alert read there too, with the same alert number of the control repository read as its control.
        const known = Array.isArray(control.json) ? (control.json[0] as Alert | undefined)?.number : undefined;
        if (known === undefined) return t.inconclusive(`${t.resources.public_repo} lists no alert whose number a read could use (${control.status})`);
        await expectRefusal(t, { probe: { path: `${path}/${known}` }, control: { path: alertsPath(t, `/${known}`) }, expected: [403], what: `GET ${path}/${known}` });
      },
    },
    repoCheck('alerts.not-found-404', 'An unknown alert answers 404', 'alerts.not-found-404', async (t) => {
      const listed = await t.request({ path: alertsPath(t, '?per_page=1') });
      const known = t.resources.alert_numbers?.[0] ?? (Array.isArray(listed.json) ? (listed.json[0] as Alert | undefined)?.number : undefined);
      if (known === undefined) return t.skip('inconclusive', `no alert of ${t.resources.public_repo} to read as the control (the listing answered ${listed.status})`);
      await expectRefusal(t, { probe: { path: alertsPath(t, '/2147483647') }, control: { path: alertsPath(t, `/${known}`) }, expected: [404], what: 'GET an alert number that does not exist' });
    }),
    {
      id: 'alerts.repository-in-org-listing', title: 'The organization listing gives each alert its repository', requirement: 'alerts.repository-in-org-listing',
      needs: { tokens: ['classic'], resources: ['org'] },
      async run(t) {
        const got = await alerts(t, `/orgs/${t.resources.org}/code-scanning/alerts?per_page=100`, true);
        if (got && !got.items.length) return t.skip('inconclusive', `the organization listing of ${t.resources.org} is empty`);
        const missing = got?.items.filter((a) => !a.repository || typeof a.repository !== 'object') ?? [];
        if (missing.length) t.fail(`${missing.length} alerts lack repository, e.g. number ${missing[0]!.number}`);
      },
    },
    {
      id: 'alerts.org-default-branch', title: 'The organization listing covers default branches only', requirement: 'alerts.org-default-branch',
      needs: { tokens: ['classic'], resources: ['org'] },
      async run(t) {
        const got = await alerts(t, `/orgs/${t.resources.org}/code-scanning/alerts?per_page=100`, true);
        if (got && !got.items.length) return t.skip('inconclusive', `the organization listing of ${t.resources.org} is empty`);
        if (got && !got.items.some((a) => typeof a.most_recent_instance?.ref === 'string')) return t.skip('inconclusive', `no alert of ${t.resources.org}'s listing gives most_recent_instance.ref: no branch to judge`);
        const pulls = got?.items.filter((a) => /^refs\/pull\//.test(a.most_recent_instance?.ref ?? '')) ?? [];
        if (pulls.length) t.fail(`${pulls.length} alerts describe a pull request ref, e.g. ${pulls[0]!.most_recent_instance!.ref}`);
      },
    },
    {
      id: 'alerts.org-owner-or-security-manager', title: 'Someone neither owner nor security manager cannot list the organization\'s alerts',
      requirement: 'alerts.org-owner-or-security-manager', needs: { tokens: ['classic', 'org_member'], resources: ['org'] },
      async run(t) {
        const path = `/orgs/${t.resources.org}/code-scanning/alerts`;
        // The control: the classic token, an owner's; no refusal status is stated.
        await expectRefusal(t, { probe: { path, as: 'org_member' }, control: { path }, what: 'a member who is neither owner nor security manager' });
      },
    },
    repoCheck('alerts.state-filter', 'state= lists only alerts in that state', 'alerts.state-filter', async (t) => {
      let listed = 0;
      for (const state of ['open', 'dismissed', 'fixed']) {
        const got = await alerts(t, alertsPath(t, `?state=${state}&per_page=100`));
        // Requiredness of state is not shown: only the alerts that give one are judged.
        const stated = got?.items.filter((a) => a.state !== undefined) ?? [];
        listed += stated.length;
        const other = stated.filter((a) => a.state !== state);
        if (other.length) t.fail(`state=${state} lists ${other.length} alerts in another state, e.g. ${other[0]!.state}`);
      }
      if (!listed) t.skip('inconclusive', 'no state listed any alert that gives its state');
    }),
    repoCheck('alerts.tool-filters', 'tool_name= lists only that tool\'s alerts', 'alerts.tool-filters', async (t) => {
      const all = await alerts(t, alertsPath(t, '?per_page=100'), true);
      const names = [...new Set(all?.items.map((a) => a.tool?.name).filter((n) => n !== undefined) ?? [])];
      if (names.length < 2) return t.skip('missing-resource', `${t.resources.public_repo} has alerts of fewer than two tools`);
      const got = await alerts(t, alertsPath(t, `?tool_name=${encodeURIComponent(names[0]!)}&per_page=100`));
      if (got && !got.items.length) return t.skip('inconclusive', `tool_name=${names[0]} listed nothing, although the unfiltered listing has its alerts`);
      const other = got?.items.filter((a) => a.tool?.name !== undefined && a.tool.name !== names[0]) ?? [];
      if (other.length) t.fail(`tool_name=${names[0]} lists ${other.length} alerts of ${other[0]!.tool.name}`);
    }),
    repoCheck('alerts.tool-filters-exclusive', 'tool_name with tool_guid together is refused (no status is stated: any 4xx)', 'alerts.tool-filters-exclusive', async (t) => {
      const { verdict, probe } = await expectRefusal(t, {
        probe: { path: alertsPath(t, '?tool_name=CodeQL&tool_guid=conformance') }, control: { path: alertsPath(t, '?tool_name=CodeQL') }, what: 'tool_name with tool_guid',
      });
      if (verdict === 'refused') t.info(`refused with ${probe.status}`);
    }),
    repoCheck('alerts.sort-direction', 'Default order is created, descending; direction=asc reverses it', 'alerts.direction', async (t) => {
      let judged = false;
      for (const [query, sign] of [['', -1], ['&direction=asc', 1], ['&sort=created&direction=desc', -1]] as const) {
        const got = await alerts(t, alertsPath(t, `?per_page=100${query}`), true);
        const times = got?.items.map((a) => Date.parse(a.created_at)).filter((x) => !Number.isNaN(x)) ?? [];
        judged ||= times.length > 1;
        const at = times.findIndex((x, i) => i > 0 && Math.sign(x - times[i - 1]!) === -sign);
        if (at > 0) t.fail(`${query || 'default order'}: an alert created ${new Date(times[at]!).toISOString()} comes after one created ${new Date(times[at - 1]!).toISOString()}, out of ${sign > 0 ? 'ascending' : 'descending'} order`);
      }
      if (!judged) t.skip('inconclusive', `${t.resources.public_repo} lists fewer than two alerts: no order to judge`);
    }),
    repoCheck('alerts.ref-filter', 'ref= lists only alerts found on that ref: none for a ref never analysed', 'alerts.ref-filter', async (t) => {
      const ref = 'refs/heads/conformance-never-analysed';
      // Without alerts on the default branch, an empty answer for the other ref would show nothing.
      const all = await t.request({ path: alertsPath(t, '?per_page=1') });
      if (!(Array.isArray(all.json) && all.json.length)) return t.skip('inconclusive', `${t.resources.public_repo} lists no alert at all (${all.status})`);
      const r = await t.request({ path: alertsPath(t, `?ref=${encodeURIComponent(ref)}&per_page=100`) });
      // The spec lists no status for a ref without analyses; only alerts listed for it break the filter.
      if (r.status !== 200) return t.skip('inconclusive', `ref=${ref} answered ${r.status}: no listing to judge`);
      const items = t.body<Alert[]>(r) ?? [];
      if (items.length) t.fail(`ref=${ref} lists ${items.length} alerts, e.g. number ${items[0]!.number} on ${items[0]!.most_recent_instance?.ref}`);
    }),
    {
      id: 'alerts.most-recent-instance-ref', title: 'most_recent_instance describes the ref requested', requirement: 'alerts.most-recent-instance-ref',
      needs: { tokens: ['classic'], resources: ['public_repo', 'alert_ref'] },
      async run(t) {
        const ref = t.resources.alert_ref!;
        const full = ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
        const got = await alerts(t, alertsPath(t, `?ref=${encodeURIComponent(ref)}&per_page=100`));
        if (got && !got.items.length) return t.skip('missing-resource', `alert_ref ${ref} has no alerts in ${t.resources.public_repo}`);
        // Either spelling of the branch the profile names describes the ref requested.
        // An alert that gives no ref (requiredness not shown) describes no other ref.
        const other = got?.items.filter((a) => a.most_recent_instance?.ref !== undefined && a.most_recent_instance.ref !== full && a.most_recent_instance.ref !== ref) ?? [];
        if (got && !got.items.some((a) => a.most_recent_instance?.ref !== undefined)) t.inconclusive(`no alert listed for ref=${ref} gives most_recent_instance.ref: nothing to judge`);
        if (other.length) t.fail(`ref=${ref}: ${other.length} alerts describe another ref, e.g. number ${other[0]!.number} on ${other[0]!.most_recent_instance?.ref}`);
      },
    },
    repoCheck('alerts.per-page', 'per_page defaults to 30 and is capped at 100', 'alerts.per-page', async (t) => {
      const { maxPerPage, defaultPerPage } = LIMITS.codeScanning;
      const first = await alerts(t, alertsPath(t), true);
      if (first && first.items.length > defaultPerPage) t.fail(`without per_page, ${first.items.length} alerts were listed`);
      const big = await alerts(t, alertsPath(t, `?per_page=${maxPerPage + 1}`), true);
      if (big && big.items.length > maxPerPage) t.fail(`per_page=${maxPerPage + 1} listed ${big.items.length} alerts`);
      // Fewer alerts than the default page show neither the default nor the cap.
      if (first && big && first.items.length < defaultPerPage && big.items.length < defaultPerPage) t.skip('inconclusive', `${t.resources.public_repo} has ${big.items.length} alerts: fewer than a page`);
    }),
    repoCheck('alerts.cursors', 'The Link header\'s next cursor leads to the following alerts', 'alerts.cursors', async (t) => {
      const first = await alerts(t, alertsPath(t, '?per_page=5'));
      if (!first) return;
      const next = link(first.reply, 'next');
      if (!next) return t.skip('missing-resource', `${t.resources.public_repo} has no second page of alerts`);
      const path = linkPath(t, next);
      if (path === undefined) return;
      if (!/[?&](after|page)=/.test(path)) t.info('the next link carries neither after= nor page=');
      const second = await alerts(t, path);
      if (!second) return;
      const seen = new Set(first.items.map((a) => a.number));
      const repeated = second.items.filter((a) => seen.has(a.number));
      if (!second.items.length) t.fail(`following ${next} listed nothing`);
      if (repeated.length) t.fail(`following the next link repeats alerts ${repeated.map((a) => a.number).join(', ')}`);
    }),
    writeCheck('alerts.dismiss-requires-reason', 'Dismissing without dismissed_reason is refused and the alert stays open', 'alerts.dismiss-requires-reason', async (t) => {
      const repo = t.resources.public_repo!;
      await refused(t, repo, await openAlert(t, repo), { state: 'dismissed' }, 'PATCH state=dismissed without dismissed_reason');
    }),
    writeCheck('alerts.patch-states', 'A state other than open or dismissed is refused', 'alerts.patch-states', async (t) => {
      const repo = t.resources.public_repo!;
      await refused(t, repo, await openAlert(t, repo), { state: 'fixed' }, 'PATCH state=fixed');
    }),
    writeCheck('alerts.patch-state-required', 'A PATCH without state is refused and the alert stays open', 'alerts.patch-states', async (t) => {
      const repo = t.resources.public_repo!;
      await refused(t, repo, await openAlert(t, repo), { dismissed_reason: "won't fix" }, 'PATCH without state');
    }),
    writeCheck('alerts.dismissed-reason-values', 'A dismissed_reason outside the listed values is refused', 'alerts.dismissed-reason-values', async (t) => {
      const repo = t.resources.public_repo!;
      await refused(t, repo, await openAlert(t, repo), { state: 'dismissed', dismissed_reason: 'conformance-not-a-reason' }, 'PATCH with an unlisted dismissed_reason');
    }),
    writeCheck('alerts.dismiss', 'Dismissing with a reason answers 200 with state, dismissed_by, dismissed_at and dismissed_reason set', 'alerts.dismiss', async (t) => {
      const repo = t.resources.public_repo!;
      const number = await openAlert(t, repo);
      const r = await patch(t, repo, number, { state: 'dismissed', dismissed_reason: "won't fix" });
      if (!t.expectStatus(r, [200], 'PATCH state=dismissed with a reason')) return;
      const a = t.body<AlertState>(r);
      if (!a) return;
      // Requiredness is not shown: an absent field is information; a present one must say the dismissal.
      const expected: Record<keyof AlertState, [(v: unknown) => boolean, string]> = {
        state: [(v) => v === 'dismissed', 'dismissed'],
        dismissed_reason: [(v) => v === "won't fix", "won't fix"],
        dismissed_at: [(v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)), 'a timestamp'],
        dismissed_by: [(v) => !!v && typeof v === 'object', 'the user who dismissed'],
      };
      const absent = Object.keys(expected).filter((f) => a[f as keyof AlertState] === undefined);
      for (const [f, [ok, what]] of Object.entries(expected)) {
        const v = a[f as keyof AlertState];
        if (v !== undefined && !ok(v)) t.fail(`${f} is ${JSON.stringify(v)}, not ${what}`);
      }
      if (absent.length) t.info(`the answer has no ${absent.join(', ')} (requiredness not shown)`);
      if (absent.length === Object.keys(expected).length) t.inconclusive('the answer carries none of state, dismissed_reason, dismissed_at, dismissed_by: no dismissal to judge');
    }),
    writeCheck('alerts.reopen', 'Reopening a dismissed alert answers 200 and clears the dismissal', 'alerts.reopen', async (t) => {
      const repo = t.resources.public_repo!;
      const number = await openAlert(t, repo);
      if (!t.expectStatus(await patch(t, repo, number, { state: 'dismissed', dismissed_reason: 'used in tests' }), [200], 'dismissing')) return;
      const r = await t.request({ method: 'PATCH', path: `/repos/${repo}/code-scanning/alerts/${number}`, body: { state: 'open' } });
      if (!t.expectStatus(r, [200], 'PATCH state=open')) return;
      const a = t.body<AlertState>(r);
      if (a?.state !== 'open') t.fail(`state is ${JSON.stringify(a?.state)}`);
      for (const f of ['dismissed_by', 'dismissed_at', 'dismissed_reason'] as const) if (a?.[f] != null) t.fail(`${f} is still ${JSON.stringify(a[f])}`);
    }),
    writeCheck('alerts.sort-updated', 'sort=updated puts the alert updated last first', 'alerts.sort', async (t) => {
      const repo = t.resources.public_repo!;
      const oldest = (await alerts(t, alertsPath(t, '?state=open&sort=created&direction=asc&per_page=1')))?.items[0]?.number;
      if (!oldest) return t.skip('missing-resource', `${repo} has no open alert to update`);
      // Earlier checks updated alerts moments ago; a server keeping whole seconds may order ties
      // any way, so this update waits for the next second.
      await t.sleep(1100);
      if (!t.expectStatus(await patch(t, repo, oldest, { state: 'dismissed', dismissed_reason: 'used in tests' }), [200], `dismissing alert ${oldest}`)) return;
      // The listing's default state is not shown, so the dismissed alert is looked for among the dismissed ones.
      const first = (await alerts(t, alertsPath(t, '?state=dismissed&sort=updated&direction=desc&per_page=1')))?.items[0]?.number;
      if (first !== oldest) t.fail(`after updating alert ${oldest}, state=dismissed&sort=updated&direction=desc lists alert ${first} first`);
    }),
    writeCheck('alerts.update-archived-403', 'Updating an alert of an archived repository answers 403', 'alerts.update-archived-403', async (t) => {
      const repo = t.resources.archived_repo!;
      const number = await openAlert(t, repo);
      const probe = await patch(t, repo, number, DISMISS);
      // The control: the same dismissal of an alert of a repository not archived.
      const control = await dismissAndReopen(t, t.resources.public_repo!, await openAlert(t, t.resources.public_repo!));
      await expectRefusal(t, { probe, control, expected: [403], what: `PATCH an alert of ${repo}` });
    }, { tokens: ['classic'], resources: ['public_repo', 'archived_repo'] }),
    writeCheck('alerts.update-no-advanced-security-403', 'Updating an alert of a repository without advanced security answers 403', 'alerts.update-archived-403', async (t) => {
      const repo = t.resources.no_advanced_security_repo!;
      // Code scanning is off there, so it lists no alert: the number of an open alert of public_repo stands in.
      const number = await openAlert(t, t.resources.public_repo!);
      const probe = await patch(t, repo, number, DISMISS);
      // The control: the same dismissal of that alert of public_repo, reopened at once.
      const control = await dismissAndReopen(t, t.resources.public_repo!, number);
      await expectRefusal(t, { probe, control, expected: [403], what: `PATCH alert ${number} of ${repo}` });
    }, { tokens: ['classic'], resources: ['public_repo', 'no_advanced_security_repo'] }),
    ...alertListingChecks,
  ],
};
