/** Document 2, code scanning: list, read and update alerts of a repository, list them across an organization. */
import { ALERT_PATCH_STATES, DISMISSED_REASONS, VALIDATION_FAILED, type AlertState } from '../../spec/vocabulary.js';
import { canRead } from '../access.js';
import type { AreaModule } from '../area.js';
import { error, json, notFound, type HandlerContext, type HandlerResult } from '../http.js';
import type { Repo } from '../world.js';
import { createCorpus, DEFAULT_REF, type Alert } from './code-scanning/corpus.js';
import { listAlerts, normalizeRef } from './code-scanning/listing.js';
import { renderAlert } from './code-scanning/render.js';

export interface CodeScanningState {
  /** Alerts keyed by repository id. */
  alerts: Map<number, Alert[]>;
}

const NO_ADVANCED_SECURITY = 'Advanced Security must be enabled for this repository to use code scanning.';

/** The repository named by the path, or the 404/403 the spec lists. */
function repository(ctx: HandlerContext, listing = false): Repo | HandlerResult {
  const { world } = ctx.state;
  const repo = world.repo(ctx.params.owner ?? '', ctx.params.repo ?? '');
  if (!repo || repo.movedTo || !canRead(world, ctx.caller, repo)) return notFound();
  const { token } = ctx.caller;
  if (ctx.fault('alerts-public-repo-scope-refused') && token?.kind === 'classic' && !token.scopes?.some((s) => s === 'security_events' || s === 'repo')) {
    return error(403, 'Missing scope: security_events');
  }
  // The faults: the listing answers as if the feature were on; a read or an update looks the alert up first, so it is not found.
  const lookedUpFirst = ctx.endpoint.id === 'code-scanning.alert' ? ctx.fault('alerts-no-ghas-read-404') : ctx.fault('alerts-no-ghas-patch-404');
  if (!repo.advancedSecurity && !(listing && ctx.fault('alerts-no-ghas-listing-200'))) return !listing && lookedUpFirst ? notFound() : error(403, NO_ADVANCED_SECURITY);
  return repo;
}

const isResult = (v: unknown): v is HandlerResult => typeof v === 'object' && v !== null && 'status' in v;
const alertsOf = (ctx: HandlerContext, repo: Repo) => ctx.state.codeScanning.alerts.get(repo.id) ?? [];

/** The alert named by the path; 404 when unknown. */
function findAlert(ctx: HandlerContext, repo: Repo): Alert | HandlerResult {
  const n = Number(ctx.params.alert_number);
  const alert = alertsOf(ctx, repo).find((a) => a.number === n);
  if (alert) return alert;
  return ctx.fault('alerts-unknown-alert-500') ? error(500, 'Internal error') : notFound();
}

/** Writing needs push access: a collaborator, or an installation on the owning account. */
function canWrite(ctx: HandlerContext, repo: Repo): boolean {
  const { token, login } = ctx.caller;
  if (token?.kind === 'app-installation') return token.login === repo.owner;
  return login !== null && repo.collaborators.includes(login);
}

const invalid = (field: string, message: string) => error(422, VALIDATION_FAILED, { errors: [{ resource: 'CodeScanningAlert', field, code: 'invalid', message }] });

function update(ctx: HandlerContext, alert: Alert): HandlerResult | undefined {
  const { state, dismissed_reason: reason } = ctx.body;
  const allowed: readonly unknown[] = ALERT_PATCH_STATES;
  // The fault treats a PATCH without state as one changing nothing.
  if (state === undefined && ctx.fault('alerts-patch-state-optional')) return undefined;
  if (typeof state !== 'string' || (!allowed.includes(state) && !ctx.fault('alerts-patch-any-state'))) {
    return invalid('state', `state is required and must be one of ${ALERT_PATCH_STATES.join(', ')}`);
  }
  // Which states each PATCH move starts from is not shown: a fixed alert is left alone.
  if (alert.state === 'fixed') return invalid('state', 'a fixed alert cannot be changed');
  const now = ctx.now();
  if (state === 'dismissed') {
    const reasons: readonly unknown[] = DISMISSED_REASONS;
    if ((reason === undefined || reason === null) && !ctx.fault('alerts-dismiss-without-reason')) {
      return invalid('dismissed_reason', 'dismissed_reason is required when state is dismissed');
    }
    const refused = reason === DISMISSED_REASONS[0] && ctx.fault('alerts-false-positive-refused');
    if (reason !== undefined && reason !== null && (refused || (!reasons.includes(reason) && !ctx.fault('alerts-reason-outside-enum')))) {
      return invalid('dismissed_reason', `dismissed_reason must be one of ${DISMISSED_REASONS.join(', ')}`);
    }
    alert.state = 'dismissed';
    if (!ctx.fault('alerts-dismissal-fields-unset')) {
      // An installation acts for no user: nobody is named as the dismisser.
      alert.dismissedBy = ctx.caller.login;
      alert.dismissedAt = now;
      alert.dismissedReason = typeof reason === 'string' ? reason : null;
    }
  } else {
    alert.state = state as AlertState;
    if (!ctx.fault('alerts-reopen-keeps-dismissal')) {
      alert.dismissedBy = null;
      alert.dismissedAt = null;
      alert.dismissedReason = null;
    }
  }
  alert.updatedAt = now;
  return undefined;
}

export const codeScanningArea: AreaModule<CodeScanningState> = {
  area: 'code-scanning',
  faults: [
    { id: 'alerts-no-ghas-listing-200', requirement: 'alerts.no-advanced-security-403', effect: 'Listing alerts of a repository without advanced security answers 200.', endpoints: ['code-scanning.repo-alerts'] },
    { id: 'alerts-no-ghas-read-404', requirement: 'alerts.no-advanced-security-403', effect: 'Reading an alert of a repository without advanced security answers 404 (the alert is looked up before the feature), not 403.', endpoints: ['code-scanning.alert'] },
    { id: 'alerts-no-ghas-patch-404', requirement: 'alerts.update-archived-403', effect: 'Updating an alert of a repository without advanced security answers 404 (the alert is looked up before the feature), not 403.' },
    { id: 'alerts-patch-state-optional', requirement: 'alerts.patch-states', effect: 'A PATCH without `state` answers 200 and changes nothing.' },
    { id: 'alerts-org-other-orgs', requirement: 'alerts.org-default-branch', effect: "The organization listing also lists the alerts of other organizations' repositories the caller can read." },
    { id: 'alerts-archived-patch-accepted', requirement: 'alerts.update-archived-403', effect: 'Updating an alert of an archived repository answers 200.' },
    { id: 'alerts-unknown-alert-500', requirement: 'alerts.not-found-404', effect: 'An unknown alert number answers 500 instead of 404.' },
    // Conditional-request faults of one endpoint are named after its catalogue id (reference/server.ts).
    { id: 'code-scanning-repo-alerts-if-none-match-ignored', requirement: 'alerts.not-modified-304', effect: 'A matching If-None-Match on the repository alert listing is answered 200, never 304.', endpoints: ['code-scanning.repo-alerts'] },
    { id: 'code-scanning-alert-if-none-match-ignored', requirement: 'alerts.not-modified-304', effect: 'A matching If-None-Match on a single alert is answered 200, never 304.', endpoints: ['code-scanning.alert'] },
    { id: 'alerts-org-no-repository', requirement: 'alerts.repository-in-org-listing', effect: 'Organization listings lack `repository`.' },
    { id: 'alerts-org-pull-request-alerts', requirement: 'alerts.org-default-branch', effect: 'Organization listings include alerts found only on pull-request refs.' },
    { id: 'alerts-org-any-member', requirement: 'alerts.org-owner-or-security-manager', effect: 'Any organization member may list its alerts.' },
    { id: 'alerts-state-filter-ignored', requirement: 'alerts.state-filter', effect: 'The `state` filter is ignored.' },
    { id: 'alerts-tool-name-ignored', requirement: 'alerts.tool-filters', effect: 'The `tool_name` filter is ignored.' },
    { id: 'alerts-tool-filters-combined', requirement: 'alerts.tool-filters-exclusive', effect: '`tool_name` and `tool_guid` together are accepted.' },
    { id: 'alerts-ref-filter-ignored', requirement: 'alerts.ref-filter', effect: 'The `ref` filter is ignored: default-branch alerts are listed for any ref.' },
    { id: 'alerts-instance-ignores-ref', requirement: 'alerts.most-recent-instance-ref', effect: '`most_recent_instance` always describes the default branch.' },
    { id: 'alerts-sort-ignored', requirement: 'alerts.sort', effect: '`sort=updated` is ignored: alerts stay ordered by creation.' },
    { id: 'alerts-direction-ignored', requirement: 'alerts.direction', effect: 'Alerts are always listed oldest first.' },
    { id: 'alerts-per-page-uncapped', requirement: 'alerts.per-page', effect: '`per_page` above 100 is honoured.' },
    { id: 'alerts-cursors-broken', requirement: 'alerts.cursors', effect: '`before`/`after` cursors are ignored: the first page comes back.' },
    { id: 'alerts-single-rule-tags-string', requirement: 'alerts.single-rule-fields', effect: 'The single-alert form gives `rule.tags` as one comma-separated string, not an array of strings.' },
    { id: 'alerts-patch-any-state', requirement: 'alerts.patch-states', effect: 'PATCH accepts any `state` string, e.g. fixed.' },
    { id: 'alerts-dismiss-without-reason', requirement: 'alerts.dismiss-requires-reason', effect: 'Dismissing without `dismissed_reason` is accepted.' },
    { id: 'alerts-org-reason-identifier', requirement: 'alerts.dismissed-reason-values', effect: 'The organization listing spells dismissed_reason as an identifier (false_positive, won\'t_fix, used_in_tests).', endpoints: ['code-scanning.org-alerts'] },
    { id: 'alerts-reason-outside-enum', requirement: 'alerts.dismissed-reason-values', effect: 'Any `dismissed_reason` string is accepted and returned.' },
    { id: 'alerts-dismissal-fields-unset', requirement: 'alerts.dismiss', effect: 'Dismissing sets the state but leaves dismissed_by, dismissed_at and dismissed_reason null.' },
    { id: 'alerts-reopen-keeps-dismissal', requirement: 'alerts.reopen', effect: 'Reopening keeps dismissed_by, dismissed_at and dismissed_reason.' },
    { id: 'alerts-unknown-org-200', requirement: 'alerts.not-found-404', effect: 'The alert listing of an organization that does not exist answers 200 with an empty array.' },
    { id: 'alerts-patch-unknown-422', requirement: 'alerts.not-found-404', effect: 'Updating an alert number that does not exist answers 422 instead of 404.' },
    { id: 'alerts-repo-listing-repository', requirement: 'alerts.repository-in-org-listing', effect: 'The repository listing embeds `repository` in each alert too.' },
    { id: 'alerts-org-omits-private-repos', requirement: 'alerts.org-default-branch', effect: "The organization listing leaves out the alerts of the organization's private repositories." },
    { id: 'alerts-org-state-filter-ignored', requirement: 'alerts.state-filter', effect: 'The organization listing ignores `state`.' },
    { id: 'alerts-org-tool-name-ignored', requirement: 'alerts.tool-filters', effect: 'The organization listing ignores `tool_name`.' },
    { id: 'alerts-tool-guid-ignored', requirement: 'alerts.tool-filters', effect: 'Both listings ignore `tool_guid`.' },
    { id: 'alerts-org-tool-filters-combined', requirement: 'alerts.tool-filters-exclusive', effect: 'The organization listing accepts `tool_name` and `tool_guid` together.' },
    { id: 'alerts-org-sort-ignored', requirement: 'alerts.sort', effect: 'The organization listing ignores `sort=updated`.' },
    { id: 'alerts-org-direction-ignored', requirement: 'alerts.direction', effect: 'The organization listing always lists oldest first.' },
    { id: 'alerts-org-per-page-uncapped', requirement: 'alerts.per-page', effect: 'The organization listing honours `per_page` above 100.' },
    { id: 'alerts-per-page-default-10', requirement: 'alerts.per-page', effect: 'Both listings default to 10 alerts a page, not 30.' },
    { id: 'alerts-org-per-page-default-10', requirement: 'alerts.per-page', effect: 'The organization listing defaults to 10 alerts a page, not 30.' },
    { id: 'alerts-org-cursors-broken', requirement: 'alerts.cursors', effect: 'The organization listing ignores `before`/`after`: the first page comes back.' },
    { id: 'alerts-before-cursor-ignored', requirement: 'alerts.cursors', effect: 'Both listings ignore `before`: the prev link leads to the first page.' },
    { id: 'alerts-no-link-header', requirement: 'alerts.cursors', effect: 'Neither listing sends a Link header, so no cursor is handed out.' },
    { id: 'alerts-org-no-link-header', requirement: 'alerts.cursors', effect: 'The organization listing sends no Link header.' },
    { id: 'alerts-instance-latest-ref', requirement: 'alerts.most-recent-instance-ref', effect: 'With no ref requested, most_recent_instance describes the latest instance (a pull-request ref) rather than the default branch.' },
    { id: 'alerts-scope-ignored', requirement: 'alerts.classic-scopes', effect: 'A classic token holding none of security_events, public_repo and repo reads and updates alerts of a repository.' },
    { id: 'alerts-org-scope-ignored', requirement: 'alerts.org-owner-or-security-manager', effect: 'A classic token of an owner holding neither repo nor security_events lists the organization\'s alerts.', endpoints: ['code-scanning.org-alerts'] },
    { id: 'alerts-public-repo-scope-refused', requirement: 'alerts.classic-scopes', effect: 'A classic token with only public_repo is refused on the alerts of a public repository.' },
    { id: 'alerts-short-ref-unknown', requirement: 'alerts.ref-filter', effect: 'A ref given as a bare branch name (<branch>) matches nothing: only refs/heads/<branch> works.' },
    { id: 'alerts-false-positive-refused', requirement: 'alerts.dismissed-reason-values', effect: 'Dismissing with dismissed_reason "false positive" is refused with 422.' },
    { id: 'alerts-org-security-manager-refused', requirement: 'alerts.org-owner-or-security-manager', effect: 'A security manager who does not own the organization is refused its alert listing.' },
    { id: 'alerts-page-ignored', requirement: 'alerts.page', effect: 'Both listings ignore `page`: the first page comes back.' },
    { id: 'alerts-org-page-ignored', requirement: 'alerts.page', effect: 'The organization listing ignores `page`.' },
    { id: 'alerts-timestamps-millis', requirement: 'resource.timestamps', effect: 'Alert timestamps carry milliseconds.' },
  ],
  createState: (init) => ({ alerts: createCorpus(init) }),
  handlers: {
    'code-scanning.repo-alerts': (ctx) => {
      const repo = repository(ctx, true);
      if (isResult(repo)) return repo;
      const ref = ctx.query.get('ref');
      const entries = alertsOf(ctx, repo).map((alert) => ({ repo, alert }));
      return listAlerts(ctx, entries, {
        // The fault takes a bare branch name for a ref of its own, which nothing was found on.
        ref: ref ? (ctx.fault('alerts-short-ref-unknown') ? ref : normalizeRef(ref)) : DEFAULT_REF, refFilter: !ctx.fault('alerts-ref-filter-ignored'), withRepository: ctx.fault('alerts-repo-listing-repository'),
      });
    },

    'code-scanning.org-alerts': (ctx) => {
      const { world } = ctx.state;
      const org = world.orgs.get(ctx.params.org ?? '');
      if (!org) return ctx.fault('alerts-unknown-org-200') ? json(200, []) : notFound();
      const { token, login } = ctx.caller;
      const managers = [...org.owners, ...(ctx.fault('alerts-org-security-manager-refused') ? [] : org.securityManagers), ...(ctx.fault('alerts-org-any-member') ? org.members : [])];
      const allowed = token?.kind === 'app-installation' ? token.login === org.login
        : login !== null && managers.includes(login);
      // Not shown: a caller who is neither owner nor security manager learns nothing, as for an unknown organization.
      if (!allowed) return notFound();
      const entries = world.liveRepos()
        .filter((r) => (r.owner === org.login || (ctx.fault('alerts-org-other-orgs') && canRead(world, ctx.caller, r))) && r.advancedSecurity && !(r.private && ctx.fault('alerts-org-omits-private-repos')))
        .flatMap((repo) => alertsOf(ctx, repo).map((alert) => ({ repo, alert })));
      return listAlerts(ctx, entries, {
        ref: DEFAULT_REF, refFilter: !ctx.fault('alerts-org-pull-request-alerts'), withRepository: !ctx.fault('alerts-org-no-repository'),
      });
    },

    'code-scanning.alert': (ctx) => {
      const repo = repository(ctx);
      if (isResult(repo)) return repo;
      const alert = findAlert(ctx, repo);
      if (isResult(alert)) return alert;
      return json(200, renderAlert(ctx, repo, alert, { single: true, ref: DEFAULT_REF, withRepository: false }));
    },

    'code-scanning.alert-update': (ctx) => {
      const repo = repository(ctx);
      if (isResult(repo)) return repo;
      if (repo.archived && !ctx.fault('alerts-archived-patch-accepted')) return error(403, 'Repository is archived: its alerts cannot be updated.');
      if (!canWrite(ctx, repo)) return error(403, 'Resource not accessible: push access to the repository is required.');
      // The fault validates the body before looking the alert up, so an unknown alert with a valid body reads as invalid.
      if (ctx.fault('alerts-patch-unknown-422') && !alertsOf(ctx, repo).some((a) => a.number === Number(ctx.params.alert_number))) {
        return invalid('alert_number', 'no such alert');
      }
      const alert = findAlert(ctx, repo);
      if (isResult(alert)) return alert;
      return update(ctx, alert) ?? json(200, renderAlert(ctx, repo, alert, { single: true, ref: DEFAULT_REF, withRepository: false }));
    },
  },
};
