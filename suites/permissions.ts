/**
 * Permissions of fine-grained and app tokens on the endpoints in scope (document 2, Authentication
 * and the permission matrix): code scanning needs security_events, source imports need contents,
 * and the import writes are [U], user access tokens only. Which token lacks or holds a permission
 * comes from the profile's `permissions` maps. Notifications (classic tokens only) are checked by
 * auth.notifications-classic-only; search states no permission, and an app token searching public
 * data is checked by search.app-user-issue-qualifier, so this suite spends no search quota.
 */
import { CATALOGUE, type Endpoint } from '../spec/catalogue.js';
import { PERMISSION_MATRIX } from '../spec/permissions.js';
import type { Reply } from '../core/client.js';
import type { TokenName } from '../core/profile.js';
import { expectRefusal } from '../core/refusal.js';
import type { CheckContext, CheckSpec, Suite } from '../core/suite.js';
import { patchAlert } from './alerts-http.js';
import { importPath, start, url } from './imports-http.js';
import { describeNeed, holding, judgeHeader, lacking, PERMISSION_TOKENS, type Need } from './permission-tokens.js';

const inScope = (area: Endpoint['area']) => CATALOGUE.filter((e) => e.area === area && e.permission);
const ALERT_READS = inScope('code-scanning').filter((e) => !e.writes);
const ALERT_UPDATE = inScope('code-scanning').find((e) => e.writes)!;
/** Reads first, then changes and DELETE; PUT last, on a cleared repository, so an admitted PUT shows as 201. */
const IMPORT_ORDER = ['GET', 'PATCH', 'DELETE', 'PUT'];
const IMPORTS = inScope('imports').sort((a, b) => IMPORT_ORDER.indexOf(a.method) - IMPORT_ORDER.indexOf(b.method));
/** The import endpoints the matrix marks [U]. */
const UAT_ONLY = IMPORTS.filter((e) => PERMISSION_MATRIX.some((r) => r.uatOnly && r.method === e.method && r.path === e.path));

const need = (e: Endpoint): Need => e.permission!;
const REFUSED = [403, 404];
const STATED = 'document 1: "with insufficient permissions the answer is 404 or 403"';
const DISMISS = { state: 'dismissed', dismissed_reason: "won't fix" };

function noToken(t: CheckContext, what: string): never {
  return t.skip('missing-token', `no token of the profile (${PERMISSION_TOKENS.join(', ')}) declares permissions ${what}`);
}

/** Fills an endpoint's path; one whose values the profile lacks is left out, with a note. */
function fill(t: CheckContext, e: Endpoint, values: Record<string, string | number | undefined>): string | undefined {
  const missing = [...e.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((n) => values[n] === undefined);
  if (missing.length) {
    t.info(`${e.method} ${e.path} not probed: no ${missing.join(', ')}`);
    return undefined;
  }
  return e.path.replace(/\{(\w+)\}/g, (_m, n: string) => String(values[n]));
}

const ownerRepo = (full: string) => {
  const [owner, repo] = full.split('/');
  return { owner, repo };
};
const alertValues = (t: CheckContext, alert = t.resources.alert_numbers?.[0]) =>
  ({ ...ownerRepo(t.resources.public_repo!), org: t.resources.org, alert_number: alert });

/** An open alert of public_repo, to probe the update with. */
async function openAlertPath(t: CheckContext): Promise<string> {
  const r = await t.request({ path: `/repos/${t.resources.public_repo}/code-scanning/alerts?state=open&per_page=1` });
  const number = Array.isArray(r.json) ? (r.json[0] as { number?: number } | undefined)?.number : undefined;
  if (!number) return t.skip('missing-resource', `${t.resources.public_repo} has no open alert (GET answered ${r.status})`);
  return fill(t, ALERT_UPDATE, alertValues(t, number))!;
}

interface ImportProbe { endpoint: Endpoint; path: string; as: TokenName; reply: Reply; control?: Reply }

/**
 * Starts an import in import_repo (deleted at the end of the run, whatever the probes did to it),
 * then calls each endpoint as the tokens `tokensFor` names, with bodies that change little. With
 * `control`, the same request as the classic token follows each endpoint's probes (after them: a
 * DELETE before would leave the probes nothing to refuse).
 */
async function probeImports(t: CheckContext, endpoints: readonly Endpoint[], tokensFor: (e: Endpoint) => TokenName[], control = false): Promise<ImportProbe[]> {
  const startBody = { vcs: 'subversion', vcs_url: url(t, 'ok') };
  const started = await start(t, startBody);
  if (started.status !== 201) return t.skip('inconclusive', `no import to probe: PUT /import answered ${started.status}`);
  const base = importPath(t);
  const authors = await t.request({ path: `${base}/authors` });
  const author = Array.isArray(authors.json) ? (authors.json[0] as { id?: number } | undefined)?.id : undefined;
  const values = { ...ownerRepo(t.resources.import_repo!), author_id: author };
  const bodies: Record<string, object> = { 'imports.start': startBody, 'imports.update': {}, 'imports.author-update': {}, 'imports.lfs': { use_lfs: 'opt_out' } };
  const probes: ImportProbe[] = [];
  for (const endpoint of endpoints) {
    const path = fill(t, endpoint, values);
    const tokens = tokensFor(endpoint);
    if (!path || !tokens.length) continue;
    if (endpoint.method === 'PUT' && (await t.request({ path: base })).status === 200) await t.request({ method: 'DELETE', path: base });
    const body = bodies[endpoint.id];
    const request = { method: endpoint.method, path, ...(body ? { body } : {}) };
    const sent = [];
    for (const as of tokens) sent.push({ endpoint, path, as, reply: await t.request({ ...request, as }) });
    const reply = control ? await t.request(request) : undefined;
    probes.push(...sent.map((p) => ({ ...p, ...(reply ? { control: reply } : {}) })));
  }
  return probes;
}

const IMPORT_NEEDS: CheckSpec['needs'] = { tokens: ['classic'], resources: ['import_repo', 'import_urls'] };

const codeScanningChecks: CheckSpec[] = [
  {
    id: 'permissions.code-scanning-refused', title: 'A token without security_events=read is refused (403 or 404) on the alert reads',
    requirement: 'permissions.code-scanning', needs: { tokens: ['classic'], resources: ['public_repo'] },
    async run(t) {
      const tokens = lacking(t.profile, need(ALERT_READS[0]!));
      if (!tokens.length) return noToken(t, `without ${describeNeed(need(ALERT_READS[0]!))}`);
      for (const e of ALERT_READS) {
        const path = fill(t, e, alertValues(t));
        if (!path) continue;
        // The control: the classic token, which holds security_events.
        const control = await t.request({ path });
        for (const as of tokens) await expectRefusal(t, { probe: { path, as }, control, expected: REFUSED, source: STATED, what: `GET ${path} as ${as} (without ${describeNeed(need(e))})` });
      }
    },
  },
  {
    id: 'permissions.code-scanning-admitted', title: 'A token holding security_events=read reads the alerts of a public repository',
    requirement: 'permissions.code-scanning', needs: { resources: ['public_repo'] },
    async run(t) {
      const tokens = holding(t.profile, need(ALERT_READS[0]!));
      if (!tokens.length) return noToken(t, `with exactly ${describeNeed(need(ALERT_READS[0]!))}`);
      for (const e of ALERT_READS) {
        const path = fill(t, e, alertValues(t));
        if (!path) continue;
        for (const as of tokens) {
          const r = await t.request({ path, as });
          // The organization listing also needs an owner or security manager, which the profile does not declare.
          if (e.path.includes('{org}')) {
            if (r.status !== 200) t.info(`GET ${path} as ${as}: ${r.status} (the token's user may be neither owner nor security manager)`);
          } else t.expectStatus(r, [200], `GET ${path} as ${as}`);
        }
      }
    },
  },
  {
    id: 'permissions.code-scanning-update', title: 'Updating an alert: refused without security_events=write (read is not enough), admitted with it',
    requirement: 'permissions.code-scanning', needs: { tokens: ['classic'], resources: ['public_repo'] }, writes: 'code-scanning',
    async run(t) {
      const refused = lacking(t.profile, need(ALERT_UPDATE));
      const admitted = holding(t.profile, need(ALERT_UPDATE));
      if (!refused.length && !admitted.length) return noToken(t, `with or without ${describeNeed(need(ALERT_UPDATE))}`);
      const path = await openAlertPath(t);
      const probes = [];
      for (const as of refused) probes.push({ as, reply: await patchAlert(t, path, DISMISS, as) });
      if (probes.length) {
        // The control, after the probes: the same dismissal as the classic token, then reopened.
        const control = await patchAlert(t, path, DISMISS);
        if (control.status === 200) await t.request({ method: 'PATCH', path, body: { state: 'open' } });
        for (const p of probes) await expectRefusal(t, { probe: p.reply, control, expected: REFUSED, source: STATED, what: `PATCH ${path} as ${p.as} (without ${describeNeed(need(ALERT_UPDATE))})` });
      }
      for (const as of admitted) {
        if (!t.expectStatus(await patchAlert(t, path, DISMISS, as), [200], `dismissing as ${as}`)) continue;
        t.expectStatus(await t.request({ method: 'PATCH', path, body: { state: 'open' }, as }), [200], `reopening as ${as}`);
      }
      if (!refused.length) t.info(`no token lacks ${describeNeed(need(ALERT_UPDATE))}: refusal not probed`);
      if (!admitted.length) t.info(`no token holds exactly ${describeNeed(need(ALERT_UPDATE))}: admission not probed`);
    },
  },
  {
    id: 'permissions.code-scanning-header', title: 'X-Accepted-<Vendor>-Permissions names security_events=read on the alert reads',
    requirement: 'auth.accepted-permissions-header', needs: { resources: ['public_repo'] },
    async run(t) {
      const as = [...lacking(t.profile, need(ALERT_READS[0]!)), ...holding(t.profile, need(ALERT_READS[0]!))][0];
      if (!as) return noToken(t, 'at all');
      for (const e of ALERT_READS) {
        const path = fill(t, e, alertValues(t));
        if (path) judgeHeader(t, e, await t.request({ path, as }));
      }
    },
  },
  {
    id: 'permissions.code-scanning-update-header', title: 'X-Accepted-<Vendor>-Permissions names security_events=write on the alert update',
    requirement: 'auth.accepted-permissions-header', needs: { tokens: ['classic'], resources: ['public_repo'] }, writes: 'code-scanning',
    async run(t) {
      const as = [...lacking(t.profile, need(ALERT_UPDATE)), ...holding(t.profile, need(ALERT_UPDATE))][0];
      if (!as) return noToken(t, 'at all');
      judgeHeader(t, ALERT_UPDATE, await patchAlert(t, await openAlertPath(t), DISMISS, as));
    },
  },
];

const importChecks: CheckSpec[] = [
  {
    id: 'permissions.imports-refused', title: 'A token without contents (read for GET, write for the others) is refused (403 or 404) on every import endpoint',
    requirement: 'permissions.imports-contents', needs: IMPORT_NEEDS, writes: 'imports',
    async run(t) {
      if (!IMPORTS.some((e) => lacking(t.profile, need(e)).length)) return noToken(t, 'without contents');
      for (const p of await probeImports(t, IMPORTS, (e) => lacking(t.profile, need(e)), true)) {
        await expectRefusal(t, { probe: p.reply, control: p.control!, expected: REFUSED, source: STATED, what: `${p.endpoint.method} ${p.path} as ${p.as} (without ${describeNeed(need(p.endpoint))})` });
      }
    },
  },
  {
    id: 'permissions.imports-uat-only', title: 'An installation token holding contents=write is refused (403 or 404) on the [U] import endpoints',
    requirement: 'permissions.uat-only', needs: { tokens: ['classic', 'app_installation'], resources: ['import_repo', 'import_urls'] }, writes: 'imports',
    async run(t) {
      const holds = (e: Endpoint) => holding(t.profile, need(e)).includes('app_installation');
      if (!UAT_ONLY.some(holds)) {
        return t.skip('missing-token', `tokens.app_installation.permissions does not declare ${describeNeed(need(UAT_ONLY[0]!))}, so a refusal would not show the [U] rule`);
      }
      for (const p of await probeImports(t, UAT_ONLY, (e) => (holds(e) ? ['app_installation'] : []), true)) {
        await expectRefusal(t, { probe: p.reply, control: p.control!, expected: REFUSED, source: STATED, what: `${p.endpoint.method} ${p.path} ([U]) as app_installation` });
      }
    },
  },
  {
    id: 'permissions.imports-token-kinds', title: 'Which tokens holding contents the import endpoints admit (classic only, or the matrix)',
    requirement: 'permissions.imports-token-kinds', needs: IMPORT_NEEDS, writes: 'imports', observes: true,
    async run(t) {
      // The installation token on [U] endpoints is permissions.imports-uat-only's.
      const tokensFor = (e: Endpoint) => holding(t.profile, need(e)).filter((n) => n !== 'app_installation' || !UAT_ONLY.includes(e));
      if (!IMPORTS.some((e) => tokensFor(e).length)) return noToken(t, 'with contents');
      const seen = { admitted: [] as string[], refused: [] as string[] };
      for (const p of await probeImports(t, IMPORTS, tokensFor)) {
        seen[p.reply.status < 300 ? 'admitted' : 'refused'].push(`${p.endpoint.method} ${p.endpoint.path.replace('/repos/{owner}/{repo}', '')} as ${p.as} (${p.reply.status})`);
      }
      for (const [outcome, list] of Object.entries(seen)) if (list.length) t.info(`${outcome}: ${list.join(', ')}`);
    },
  },
  {
    id: 'permissions.imports-classic-admitted', title: 'The import reads admit the classic token wherever a fine-grained or app token holding contents is admitted',
    requirement: 'permissions.imports-token-kinds', needs: IMPORT_NEEDS, writes: 'imports',
    async run(t) {
      const reads = IMPORTS.filter((e) => e.method === 'GET');
      const holders = (e: Endpoint) => holding(t.profile, need(e));
      if (!reads.some((e) => holders(e).length)) return noToken(t, 'with contents');
      let compared = 0;
      // Each probe's control is the same read as the classic token.
      for (const p of await probeImports(t, reads, holders, true)) {
        if (p.reply.status < 200 || p.reply.status > 299) continue;
        compared += 1;
        const classic = p.control!;
        if (classic.status >= 400 && classic.status < 500 && classic.status !== 429) {
          t.fail(`GET ${p.path}: the classic token is refused with ${classic.status} where ${p.as} (holding contents) is admitted; "personal access token (classic) only" admits the classic token on either reading`);
        }
      }
      if (!compared) t.skip('inconclusive', 'no token holding contents was admitted on an import read: nothing to compare the classic token with');
    },
  },
  {
    id: 'permissions.imports-header', title: 'X-Accepted-<Vendor>-Permissions, when sent, names contents=read on the import reads and contents=write on the others',
    requirement: 'auth.accepted-permissions-header', needs: IMPORT_NEEDS, writes: 'imports',
    async run(t) {
      const tokenFor = (e: Endpoint) => [...lacking(t.profile, need(e)), ...holding(t.profile, need(e))].slice(0, 1);
      if (!IMPORTS.some((e) => tokenFor(e).length)) return noToken(t, 'at all');
      // "Source imports: personal access token (classic) only" may mean no permission applies, so a
      // missing header is information; a header naming another permission or level still fails.
      const probes = await probeImports(t, IMPORTS, tokenFor);
      for (const p of probes) judgeHeader(t, p.endpoint, p.reply, 'info');
      const name = t.names.acceptedPermissionsHeader;
      if (!probes.some((p) => p.reply.headers[name.toLowerCase()] !== undefined)) t.inconclusive(`none of ${probes.length} import answers carried ${name}: nothing to judge`);
    },
  },
];

export const permissionsSuite: Suite = {
  name: 'permissions',
  description: 'What fine-grained and app tokens need on code scanning and imports: refusals, admissions, [U] rows, X-Accepted-<Vendor>-Permissions.',
  checks: () => [...codeScanningChecks, ...importChecks],
};
