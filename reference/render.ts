/** Representations shared by every area: the user object and the embedded repository object. */
import type { HandlerContext } from './http.js';
import type { Account, Repo } from './world.js';

/** Document 1, "User object". */
export function renderUser(ctx: Pick<HandlerContext, 'apiBase' | 'webBase' | 'fault'>, account: Account): Record<string, unknown> {
  const url = `${ctx.apiBase}/users/${account.login}`;
  return {
    login: account.login,
    id: ctx.fault('schema-user-id-string') ? String(account.id) : account.id,
    node_id: nodeId('U', account.id),
    avatar_url: `${ctx.webBase}/avatars/${account.login}`,
    gravatar_id: '',
    url,
    html_url: `${ctx.webBase}/${account.login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: account.type,
    site_admin: account.siteAdmin ?? false,
  };
}

/** The repository link fields the spec lists, with the URI templates the real platform uses. */
const REPO_LINKS: Record<string, string> = {
  archive_url: '/{archive_format}{/ref}', assignees_url: '/assignees{/user}', blobs_url: '/git/blobs{/sha}',
  branches_url: '/branches{/branch}', collaborators_url: '/collaborators{/collaborator}', comments_url: '/comments{/number}',
  commits_url: '/commits{/sha}', compare_url: '/compare/{base}...{head}', contents_url: '/contents/{+path}',
  contributors_url: '/contributors', deployments_url: '/deployments', downloads_url: '/downloads', events_url: '/events',
  forks_url: '/forks', git_commits_url: '/git/commits{/sha}', git_refs_url: '/git/refs{/sha}', git_tags_url: '/git/tags{/sha}',
  issue_comment_url: '/issues/comments{/number}', issue_events_url: '/issues/events{/number}', issues_url: '/issues{/number}',
  keys_url: '/keys{/key_id}', labels_url: '/labels{/name}', languages_url: '/languages', merges_url: '/merges',
  milestones_url: '/milestones{/number}', notifications_url: '/notifications{?since,all,participating}', pulls_url: '/pulls{/number}',
  releases_url: '/releases{/id}', stargazers_url: '/stargazers', statuses_url: '/statuses/{sha}', subscribers_url: '/subscribers',
  subscription_url: '/subscription', tags_url: '/tags', teams_url: '/teams', trees_url: '/git/trees{/sha}', hooks_url: '/hooks',
};

const LINK_ENTRIES = Object.entries(REPO_LINKS);

/**
 * The host of a web base, parsed again only when the base changes, not for each rendered repository
 * (a page of alerts renders a hundred). One entry: a process that starts reference after reference
 * keeps nothing of the earlier ones.
 */
let parsed = { webBase: '', host: '' };
function hostOf(webBase: string): string {
  if (parsed.webBase !== webBase) parsed = { webBase, host: new URL(webBase).host };
  return parsed.host;
}

/** Document 1, "Repository object (embedded in results)". */
export function renderRepo(ctx: Pick<HandlerContext, 'apiBase' | 'webBase' | 'state' | 'fault'>, repo: Repo): Record<string, unknown> {
  const owner = ctx.state.world.account(repo.owner);
  const fullName = `${repo.owner}/${repo.name}`;
  const url = `${ctx.apiBase}/repos/${fullName}`;
  const host = hostOf(ctx.webBase);
  const rendered: Record<string, unknown> = {
    id: repo.id,
    node_id: nodeId('R', repo.id),
    name: repo.name,
    full_name: fullName,
    owner: owner ? renderUser(ctx, owner) : {},
    private: ctx.fault('schema-repository-private-string') ? String(repo.private) : repo.private,
    html_url: `${ctx.webBase}/${fullName}`,
    description: ctx.fault('schema-repository-description-null') ? null : repo.description,
    fork: repo.fork,
    url,
  };
  for (const [field, suffix] of LINK_ENTRIES) rendered[field] = `${url}${suffix}`;
  rendered.git_url = `git://${host}/${fullName}.git`;
  rendered.ssh_url = `git@${host}:${fullName}.git`;
  rendered.svn_url = `${ctx.webBase}/${fullName}`;
  return rendered;
}

/** Opaque, stable node ids. */
export function nodeId(kind: string, id: number | string): string {
  return Buffer.from(`${kind}_${id}`).toString('base64').replace(/=+$/, '');
}
