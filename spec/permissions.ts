/**
 * Document 2's "Permission matrix for app tokens", as data: every row once, with the O/R/B
 * abbreviations, "…" shorthands and "GET and POST X" lists expanded to one method and full path
 * per row. The rows below are written in the spec's own notation, one spec item per string,
 * so they can be read against the spec line by line:
 *
 *   'PUT,DELETE O/interaction-limits [+]'   methods, path (O/R/B or absolute), then marks
 *
 * Marks: [U] user access token only; [+] several permissions required or another one usable;
 * [x2] the spec lists the row twice ("two rows", "two rows each"): kept once, flagged.
 *
 * Permission names: the spec does not show how a category is spelled in
 * X-Accepted-<Vendor>-Permissions except through the prose (security_events, Contents). Each name
 * here is the category's name in snake case, prefixed `organization_` for organization permissions
 * so the organization and repository Administration categories stay distinct.
 */
import type { Method } from './vocabulary.js';

export type Level = 'read' | 'write' | 'admin';

/** Access levels in order, to tell a lower level from a higher one. */
export const LEVEL_RANK: Readonly<Record<Level, number>> = { read: 1, write: 2, admin: 3 };

export interface MatrixRow {
  /** As the spec heads it, e.g. `Organization permissions: Administration`. */
  category: string;
  /** Snake-case name as in X-Accepted-<Vendor>-Permissions, e.g. `organization_administration`. */
  permission: string;
  access: Level;
  method: Method;
  /** Full path template, e.g. `/repos/{owner}/{repo}/import`. */
  path: string;
  /** [U]: only a user access token may call it, not an installation access token. */
  uatOnly: boolean;
  /** [+]: several permissions are required, or a different permission may be used. */
  multiplePermissions: boolean;
  /** The spec lists this row twice (with [+]); identical rows are kept once. */
  listedTwice?: true;
}

/** The repository permission the import endpoints need (document 2, Authentication and the matrix). */
export const CONTENTS = 'contents';

const O = '/orgs/{org}';
const R = '/repos/{owner}/{repo}';
const B = `${R}/branches/{branch}/protection`;
const RUN = 'R/actions/runs/{run_id}';
const WORKFLOW = 'R/actions/workflows/{workflow_id}';
const ENV = 'R/environments/{environment_name}';
const GROUP = 'O/actions/runner-groups/{runner_group_id}';

interface CategorySource {
  category: string;
  permission: string;
  rows: Partial<Record<Level, readonly string[]>>;
}

const SOURCE: readonly CategorySource[] = [
  {
    category: 'Organization permissions: Administration', permission: 'organization_administration', rows: {
      write: [
        'PATCH O', 'DELETE O', 'PUT O/actions/oidc/customization/sub', 'PUT O/actions/permissions', 'PUT O/actions/permissions/repositories',
        'PUT,DELETE O/actions/permissions/repositories/{repository_id} [+]', 'PUT O/actions/permissions/selected-actions',
        'PUT O/actions/permissions/workflow', 'GET,POST O/code-security/configurations', 'GET O/code-security/configurations/defaults',
        'DELETE O/code-security/configurations/detach', 'GET,PATCH,DELETE O/code-security/configurations/{configuration_id}',
        'POST O/code-security/configurations/{configuration_id}/attach', 'PUT O/code-security/configurations/{configuration_id}/defaults',
        'GET O/code-security/configurations/{configuration_id}/repositories', 'POST,DELETE O/assistant/billing/selected_teams [+]',
        'POST,DELETE O/assistant/billing/selected_users [+]', 'PUT,DELETE O/interaction-limits', 'GET,POST O/rulesets',
        'GET O/rulesets/rule-suites', 'GET O/rulesets/rule-suites/{rule_suite_id}', 'GET,PUT,DELETE O/rulesets/{ruleset_id}',
        'PUT,DELETE O/security-managers/teams/{team_slug}', 'POST O/{security_product}/{enablement}',
      ],
      read: [
        'GET O/actions/cache/usage', 'GET O/actions/cache/usage-by-repository', 'GET O/actions/oidc/customization/sub', 'GET O/actions/permissions',
        'GET O/actions/permissions/repositories', 'GET O/actions/permissions/selected-actions', 'GET O/actions/permissions/workflow',
        'GET O/assistant/billing [+]', 'GET O/assistant/billing/seats [+]', 'GET O/assistant/usage [+]', 'GET O/installations',
        'GET O/interaction-limits', 'GET O/members/{username}/assistant [+]', 'GET O/security-managers', 'GET O/settings/billing/actions',
        'GET O/settings/billing/packages', 'GET O/settings/billing/shared-storage', 'GET O/team/{team_slug}/assistant/usage [+]',
      ],
    },
  },
  {
    // "(all [+])"
    category: 'Organization permissions: Assistant Business', permission: 'organization_assistant_business', rows: {
      write: ['POST,DELETE O/assistant/billing/selected_teams [+]', 'POST,DELETE O/assistant/billing/selected_users [+]'],
      read: [
        'GET O/assistant/billing [+]', 'GET O/assistant/billing/seats [+]', 'GET O/assistant/usage [+]', 'GET O/members/{username}/assistant [+]',
        'GET O/team/{team_slug}/assistant/usage [+]',
      ],
    },
  },
  {
    category: 'Organization permissions: Members', permission: 'organization_members', rows: {
      write: [
        'POST O/invitations', 'DELETE O/invitations/{invitation_id}', 'DELETE O/members/{username}', 'PUT,DELETE O/memberships/{username}',
        'DELETE O/organization-roles/teams/{team_slug}', 'PUT,DELETE O/organization-roles/teams/{team_slug}/{role_id}',
        'DELETE O/organization-roles/users/{username}', 'PUT,DELETE O/organization-roles/users/{username}/{role_id}',
        'PUT,DELETE O/outside_collaborators/{username}', 'PUT,DELETE O/public_members/{username} [U]', 'POST O/teams',
        'PUT,DELETE /teams/{team_id}/members/{username}', 'PATCH /user/memberships/orgs/{org} [U]',
      ],
      read: [
        'GET O/failed_invitations', 'GET O/invitations', 'GET O/invitations/{invitation_id}/teams', 'GET O/members', 'GET O/members/{username}',
        'GET O/memberships/{username}', 'GET O/organization-roles/{role_id}/teams', 'GET O/organization-roles/{role_id}/users',
        'GET O/outside_collaborators', 'GET O/public_members', 'GET O/public_members/{username}', 'GET O/teams',
        'GET /teams/{team_id}/members/{username}', 'GET /user/memberships/orgs/{org} [U]',
      ],
    },
  },
  {
    // "(all except two rows are [+])": the two are POST and GET O/projects.
    category: 'Organization permissions: Projects', permission: 'organization_projects', rows: {
      admin: [
        'GET /projects/{project_id}/collaborators [+]', 'PUT,DELETE /projects/{project_id}/collaborators/{username} [+]',
        'GET /projects/{project_id}/collaborators/{username}/permission [+]',
      ],
      write: [
        'POST O/projects', 'PATCH,DELETE /projects/columns/cards/{card_id} [+]', 'POST /projects/columns/cards/{card_id}/moves [+]',
        'PATCH,DELETE /projects/columns/{column_id} [+]', 'POST /projects/columns/{column_id}/cards [+]', 'POST /projects/columns/{column_id}/moves [+]',
        'PATCH,DELETE /projects/{project_id} [+]', 'POST /projects/{project_id}/columns [+]',
      ],
      read: [
        'GET O/projects', 'GET /projects/columns/cards/{card_id} [+]', 'GET /projects/columns/{column_id} [+]',
        'GET /projects/columns/{column_id}/cards [+]', 'GET /projects/{project_id} [+]', 'GET /projects/{project_id}/columns [+]',
      ],
    },
  },
  {
    category: 'Organization permissions: Self-hosted runners', permission: 'organization_self_hosted_runners', rows: {
      write: [
        'POST O/actions/runner-groups', `PATCH,DELETE ${GROUP}`, `PUT ${GROUP}/repositories`, `PUT,DELETE ${GROUP}/repositories/{repository_id} [+]`,
        `PUT ${GROUP}/runners`, `PUT,DELETE ${GROUP}/runners/{runner_id}`, 'POST O/actions/runners/generate-jitconfig',
        'POST O/actions/runners/registration-token', 'POST O/actions/runners/remove-token', 'DELETE O/actions/runners/{runner_id}',
        'POST,PUT,DELETE O/actions/runners/{runner_id}/labels', 'DELETE O/actions/runners/{runner_id}/labels/{name}',
      ],
      read: [
        'GET O/actions/runner-groups', `GET ${GROUP}`, `GET ${GROUP}/repositories`, `GET ${GROUP}/runners`, 'GET O/actions/runners',
        'GET O/actions/runners/downloads', 'GET O/actions/runners/{runner_id}', 'GET O/actions/runners/{runner_id}/labels',
      ],
    },
  },
  {
    category: 'Repository permissions: Actions', permission: 'actions', rows: {
      write: [
        'DELETE R/actions/artifacts/{artifact_id}', 'DELETE R/actions/caches', 'DELETE R/actions/caches/{cache_id}',
        'POST R/actions/jobs/{job_id}/rerun', 'PUT R/actions/oidc/customization/sub', `DELETE ${RUN}`, `POST ${RUN}/approve`,
        `POST ${RUN}/cancel`, `POST ${RUN}/force-cancel`, `DELETE ${RUN}/logs`, `POST ${RUN}/rerun`, `POST ${RUN}/rerun-failed-jobs`,
        `PUT ${WORKFLOW}/disable`, `POST ${WORKFLOW}/dispatches`, `PUT ${WORKFLOW}/enable`,
      ],
      read: [
        'GET R/actions/artifacts', 'GET R/actions/artifacts/{artifact_id}', 'GET R/actions/artifacts/{artifact_id}/{archive_format}',
        'GET R/actions/cache/usage', 'GET R/actions/caches', 'GET R/actions/jobs/{job_id}', 'GET R/actions/jobs/{job_id}/logs',
        'GET R/actions/oidc/customization/sub', 'GET R/actions/runs', `GET ${RUN}`,
        ...['approvals', 'artifacts', 'attempts/{attempt_number}', 'attempts/{attempt_number}/jobs', 'attempts/{attempt_number}/logs', 'jobs',
          'logs', 'pending_deployments', 'timing'].map((tail) => `GET ${RUN}/${tail}`),
        `POST ${RUN}/pending_deployments [+]`, 'GET R/actions/workflows', `GET ${WORKFLOW}`, `GET ${WORKFLOW}/runs`, `GET ${WORKFLOW}/timing`,
        'GET R/environments', `GET ${ENV}`, `GET ${ENV}/deployment-branch-policies`, `GET ${ENV}/deployment-branch-policies/{branch_policy_id}`,
        `GET ${ENV}/deployment_protection_rules`, `GET ${ENV}/deployment_protection_rules/{protection_rule_id}`,
      ],
    },
  },
  {
    category: 'Repository permissions: Administration', permission: 'administration', rows: {
      write: [
        'POST O/repos', 'PATCH R', 'DELETE R', 'PUT R/actions/permissions', 'PUT R/actions/permissions/access',
        'PUT R/actions/permissions/selected-actions', 'PUT R/actions/permissions/workflow', 'POST R/actions/runners/generate-jitconfig',
        'POST R/actions/runners/registration-token', 'POST R/actions/runners/remove-token', 'DELETE R/actions/runners/{runner_id}',
        'POST,PUT,DELETE R/actions/runners/{runner_id}/labels', 'DELETE R/actions/runners/{runner_id}/labels/{name}', 'POST R/autolinks',
        'DELETE R/autolinks/{autolink_id}', 'PUT,DELETE R/automated-security-fixes', 'PUT,DELETE B', 'POST,DELETE B/enforce_admins',
        'PATCH,DELETE B/required_pull_request_reviews', 'POST,DELETE B/required_signatures', 'PATCH,DELETE B/required_status_checks',
        'POST,PUT,DELETE B/required_status_checks/contexts', 'DELETE B/restrictions', 'POST,PUT,DELETE B/restrictions/apps',
        'POST,PUT,DELETE B/restrictions/teams', 'POST,PUT,DELETE B/restrictions/users', 'PATCH R/code-scanning/default-setup',
        'PUT,DELETE R/collaborators/{username}', `PUT,DELETE ${ENV}`, `POST ${ENV}/deployment-branch-policies`,
        `PUT,DELETE ${ENV}/deployment-branch-policies/{branch_policy_id}`, `POST ${ENV}/deployment_protection_rules`,
        `DELETE ${ENV}/deployment_protection_rules/{protection_rule_id}`, 'POST R/forks [+]', 'PUT,DELETE R/interaction-limits',
        'PATCH,DELETE R/invitations/{invitation_id}', 'POST R/keys', 'DELETE R/keys/{key_id}', 'POST,PUT,DELETE R/pages [+]',
        'GET R/pages/health [+]', 'PUT,DELETE R/private-vulnerability-reporting', 'POST R/rulesets', 'GET R/rulesets/rule-suites',
        'GET R/rulesets/rule-suites/{rule_suite_id}', 'PUT,DELETE R/rulesets/{ruleset_id}', 'POST R/security-advisories/{ghsa_id}/forks [+]',
        'POST R/tags/protection', 'DELETE R/tags/protection/{tag_protection_id}', 'PUT R/topics', 'POST R/transfer [U]',
        'PUT,DELETE R/vulnerability-alerts', 'POST /repos/{template_owner}/{template_repo}/generate', 'POST /user/repos [U]',
        'PATCH,DELETE /user/repository_invitations/{invitation_id} [U]',
      ],
      read: [
        'GET R/actions/permissions', 'GET R/actions/permissions/access', 'GET R/actions/permissions/selected-actions',
        'GET R/actions/permissions/workflow', 'GET R/actions/runners', 'GET R/actions/runners/downloads', 'GET R/actions/runners/{runner_id}',
        'GET R/actions/runners/{runner_id}/labels', 'GET R/autolinks', 'GET R/autolinks/{autolink_id}', 'GET R/automated-security-fixes',
        'GET B', 'GET B/enforce_admins', 'GET B/required_pull_request_reviews', 'GET B/required_signatures', 'GET B/required_status_checks',
        'GET B/required_status_checks/contexts', 'GET B/restrictions', 'GET B/restrictions/apps', 'GET B/restrictions/teams',
        'GET B/restrictions/users', 'GET R/code-scanning/default-setup', 'GET R/code-security-configuration',
        `GET ${ENV}/deployment_protection_rules/apps`, 'GET R/interaction-limits', 'GET R/invitations', 'GET R/keys', 'GET R/keys/{key_id}',
        'GET R/tags/protection', 'GET R/teams', 'GET R/traffic/clones', 'GET R/traffic/popular/paths', 'GET R/traffic/popular/referrers',
        'GET R/traffic/views', 'GET R/vulnerability-alerts', 'GET /user/repository_invitations [U]',
      ],
    },
  },
  {
    // "listing ends at the releases notes endpoint"; its read rows are not shown.
    category: 'Repository permissions: Contents', permission: CONTENTS, rows: {
      write: [
        'POST R/branches/{branch}/rename', 'POST R/code-scanning/engine/variant-analyses', 'PATCH,DELETE R/comments/{comment_id}',
        'POST R/comments/{comment_id}/reactions', 'DELETE R/comments/{comment_id}/reactions/{reaction_id}', 'PUT,DELETE R/contents/{path} [+] [x2]',
        'POST R/dependency-graph/snapshots', 'POST R/dispatches', 'POST R/git/blobs', 'POST R/git/commits', 'POST R/git/refs [+] [x2]',
        'PATCH R/git/refs/{ref} [+] [x2]', 'DELETE R/git/refs/{ref}', 'POST R/git/tags', 'POST R/git/trees', 'PUT,PATCH,DELETE R/import [U]',
        'PATCH R/import/authors/{author_id} [U]', 'PATCH R/import/lfs [U]', 'POST R/merge-upstream', 'POST R/merges',
        'PUT R/pulls/{pull_number}/merge', 'POST R/releases [+] [x2]', 'PATCH,DELETE R/releases/assets/{asset_id}', 'POST R/releases/generate-notes',
      ],
    },
  },
];

const ENTRY = /^((?:GET|PUT|PATCH|DELETE|POST)(?:,(?:GET|PUT|PATCH|DELETE|POST))*) (\S+)((?: \[(?:U|\+|x2)\])*)$/;
const BASES: Record<string, string> = { O, R, B };

/** Expands O, R and B (alone or followed by /…); other paths are absolute already. */
function expand(path: string): string {
  const head = path.split('/')[0]!;
  if (head === '') return path;
  const base = BASES[head];
  if (!base) throw new Error(`unknown path abbreviation in ${path}`);
  return base + path.slice(head.length);
}

function parse({ category, permission, rows }: CategorySource): MatrixRow[] {
  return (['admin', 'write', 'read'] as const).flatMap((access) => (rows[access] ?? []).flatMap((entry) => {
    const m = ENTRY.exec(entry);
    if (!m) throw new Error(`malformed matrix entry "${entry}" in ${category}`);
    const marks = m[3]!;
    return m[1]!.split(',').map((method): MatrixRow => ({
      category, permission, access, method: method as Method, path: expand(m[2]!),
      uatOnly: marks.includes('[U]'), multiplePermissions: marks.includes('[+]'), ...(marks.includes('[x2]') ? { listedTwice: true as const } : {}),
    }));
  }));
}

/** Every row of the matrix, grouped by category (in the spec's order) and by access level (admin, write, read). */
export const PERMISSION_MATRIX: readonly MatrixRow[] = SOURCE.flatMap(parse);

/** Categories in the spec's order. */
export const MATRIX_CATEGORIES: readonly string[] = SOURCE.map((c) => c.category);
