/** Document 2, "Code scanning alert": the listing form, the single-alert form and the organization form. */
import type { HandlerContext } from '../../http.js';
import { timestamp } from '../../http.js';
import { renderRepo, renderUser } from '../../render.js';
import type { Repo } from '../../world.js';
import { DEFAULT_REF, type Alert, type Instance } from './corpus.js';

export interface RenderOptions {
  /** The single-alert form adds rule details. */
  single: boolean;
  /** Ref whose instance becomes most_recent_instance. */
  ref: string;
  /** Only organization listings embed the repository. */
  withRepository: boolean;
}

export function renderAlert(ctx: HandlerContext, repo: Repo, alert: Alert, opts: RenderOptions): Record<string, unknown> {
  const ts = (ms: number | null) => (ms === null ? null : ctx.fault('alerts-timestamps-millis') ? new Date(ms).toISOString() : timestamp(ms));
  const url = `${ctx.apiBase}/repos/${repo.owner}/${repo.name}/code-scanning/alerts/${alert.number}`;
  const dismisser = alert.dismissedBy ? ctx.state.world.account(alert.dismissedBy) : undefined;
  const { rule } = alert;
  return {
    number: ctx.fault('schema-alert-number-string') ? String(alert.number) : alert.number,
    created_at: ts(alert.createdAt),
    url,
    html_url: `${ctx.webBase}/${repo.owner}/${repo.name}/security/code-scanning/${alert.number}`,
    instances_url: `${url}/instances`,
    state: alert.state,
    fixed_at: ts(alert.fixedAt),
    dismissed_by: dismisser ? renderUser(ctx, dismisser) : null,
    dismissed_at: ts(alert.dismissedAt),
    // The fault spells the reason as an identifier ("won't_fix") in the organization listing only.
    dismissed_reason: alert.dismissedReason && ctx.endpoint.id === 'code-scanning.org-alerts' && ctx.fault('alerts-org-reason-identifier')
      ? alert.dismissedReason.replace(/ /g, '_') : alert.dismissedReason,
    rule: {
      id: rule.id, severity: rule.severity, tags: opts.single && ctx.fault('alerts-single-rule-tags-string') ? rule.tags.join(',') : rule.tags,
      description: rule.description, name: rule.name,
      ...(opts.single ? { security_severity_level: rule.securitySeverityLevel, full_description: rule.fullDescription, help: rule.help, help_uri: rule.helpUri } : {}),
    },
    tool: { name: alert.tool.name, guid: alert.tool.guid, version: alert.tool.version },
    most_recent_instance: renderInstance(alert, instanceFor(ctx, alert, opts.ref)),
    ...(opts.withRepository ? { repository: ctx.fault('schema-org-alert-repository-name') ? `${repo.owner}/${repo.name}` : renderRepo(ctx, repo) } : {}),
  };
}

/** "`most_recent_instance` describes the default branch, or the `ref` requested." */
function instanceFor(ctx: HandlerContext, alert: Alert, ref: string): Instance {
  const first = alert.instances[0]!;
  if (ctx.fault('alerts-instance-ignores-ref')) return first;
  if (!ctx.query.has('ref') && ctx.fault('alerts-instance-latest-ref')) return alert.instances.at(-1)!;
  return alert.instances.find((i) => i.ref === ref) ?? alert.instances.find((i) => i.ref === DEFAULT_REF) ?? first;
}

function renderInstance(alert: Alert, i: Instance): Record<string, unknown> {
  return {
    ref: i.ref,
    analysis_key: i.analysisKey,
    category: i.category,
    environment: i.environment,
    state: alert.state === 'dismissed' ? 'dismissed' : i.state,
    commit_sha: i.commitSha,
    message: { text: i.message },
    location: {
      path: i.location.path, start_line: i.location.startLine, end_line: i.location.endLine,
      start_column: i.location.startColumn, end_column: i.location.endColumn,
    },
    classifications: i.classifications,
  };
}
