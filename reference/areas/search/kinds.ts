/**
 * The five searchable record kinds: which qualifiers and properties each understands, how it
 * sorts, and how its items render with exactly the fields document 1 "Search records" lists.
 */
import { LIMITS } from '../../../spec/limits.js';
import type { HandlerContext } from '../../http.js';
import { timestamp } from '../../http.js';
import { nodeId, renderRepo, renderUser } from '../../render.js';
import type { Account, Repo } from '../../world.js';
import { DEFAULT_BRANCH, type CodeFile, type Commit, type Issue, type Label, type Milestone } from './corpus.js';
import type { Kind } from './engine.js';
import { qualifierValues, type Qualifier } from './query.js';

const repoOf = (ctx: HandlerContext, id: number): Repo => ctx.state.world.repoById(id)!;
const repoUrl = (ctx: HandlerContext, r: Repo) => `${ctx.apiBase}/repos/${r.owner}/${r.name}`;
const webUrl = (ctx: HandlerContext, r: Repo) => `${ctx.webBase}/${r.owner}/${r.name}`;
const user = (ctx: HandlerContext, login: string) => renderUser(ctx, ctx.state.world.account(login) as Account);
const stats = (ctx: HandlerContext, r: Repo) => ctx.state.search.corpus.repoStats.get(r.id)!;
const RESOURCE = ['repo', 'user', 'org'];

export const repositoryKind: Kind<Repo> = {
  qualifiers: new Set([...RESOURCE, 'in']),
  fields: [
    { name: 'name', property: 'name', weight: 3, texts: (r) => [r.name] },
    { name: 'description', property: 'description', weight: 1, texts: (r) => [r.description] },
  ],
  repoId: (r) => r.id,
  sorts: {
    stars: (r, ctx) => stats(ctx, r).stars,
    forks: (r, ctx) => stats(ctx, r).forks,
    updated: (r, ctx) => stats(ctx, r).updatedAt,
  },
  id: (r) => r.id,
  // Item fields are not shown: the embedded repository object, the counters repository sort uses, and score.
  render: (ctx, r, score) => {
    const s = stats(ctx, r);
    return { ...renderRepo(ctx, r), stargazers_count: s.stars, forks_count: s.forks, updated_at: timestamp(s.updatedAt), score };
  },
  object: (ctx, r) => ({ url: repoUrl(ctx, r), type: 'Repository' }),
};

export const codeKind: Kind<CodeFile> = {
  qualifiers: new Set([...RESOURCE, 'in']),
  fields: [
    { name: 'file', property: 'content', weight: 1, texts: (f) => [f.content] },
    { name: 'path', property: 'path', weight: 2, texts: (f) => [f.path] },
  ],
  repoId: (f) => f.repoId,
  // "Code search: only the default branch; only files smaller than 384 KB".
  filter: (ctx, f) => (f.branch === DEFAULT_BRANCH || ctx.fault('search-code-other-branches'))
    && (Buffer.byteLength(f.content) < LIMITS.search.maxCodeFileBytes || ctx.fault('search-code-large-files-indexed')),
  sorts: { indexed: (f) => f.indexedAt },
  id: (f) => f.id,
  render: (ctx, f, score) => {
    const r = repoOf(ctx, f.repoId);
    return {
      name: f.path.slice(f.path.lastIndexOf('/') + 1),
      path: f.path,
      sha: f.sha,
      url: `${repoUrl(ctx, r)}/contents/${f.path}?ref=${f.ref}`,
      git_url: `${repoUrl(ctx, r)}/git/blobs/${f.sha}`,
      html_url: `${webUrl(ctx, r)}/blob/${f.ref}/${f.path}`,
      repository: renderRepo(ctx, r),
      score: ctx.fault('schema-code-item-score-string') ? String(score) : score,
    };
  },
  object: (ctx, f) => ({ url: `${repoUrl(ctx, repoOf(ctx, f.repoId))}/contents/${f.path}?ref=${f.ref}`, type: 'FileContent' }),
  requiresTerm: true,
};

export const commitKind: Kind<Commit> = {
  qualifiers: new Set([...RESOURCE, 'author']),
  fields: [{ name: 'message', property: 'message', weight: 1, texts: (c) => [c.message] }],
  repoId: (c) => c.repoId,
  // "Commit search: default branch only."
  filter: (ctx, c, q) => (c.branch === DEFAULT_BRANCH || ctx.fault('search-commits-other-branches')) && loginsMatch(q, 'author', c.author),
  sorts: { 'author-date': (c) => c.authorDate, 'committer-date': (c) => c.committerDate },
  id: (c) => c.id,
  render: (ctx, c, score) => {
    const r = repoOf(ctx, c.repoId);
    const url = `${repoUrl(ctx, r)}/commits/${c.sha}`;
    const person = (login: string | null, date: number) => ({
      date: timestamp(date),
      name: login ?? 'Service',
      email: login ? `${login}@users.noreply.example.invalid` : 'noreply@example.invalid',
    });
    return {
      url,
      sha: c.sha,
      html_url: `${webUrl(ctx, r)}/commit/${c.sha}`,
      comments_url: `${url}/comments`,
      commit: {
        url: `${repoUrl(ctx, r)}/git/commits/${c.sha}`,
        author: person(c.author, c.authorDate),
        committer: person(c.committer, c.committerDate),
        message: c.message,
        tree: { url: `${repoUrl(ctx, r)}/git/trees/${c.tree}`, sha: c.tree },
        comment_count: ctx.fault('schema-commit-comment-count-string') ? String(c.commentCount) : c.commentCount,
      },
      author: user(ctx, c.author),
      // "committer (user object, may be an empty object)": web commits have no committer account.
      committer: c.committer ? user(ctx, c.committer) : {},
      parents: c.parents.map((sha) => ({ url: `${repoUrl(ctx, r)}/commits/${sha}`, html_url: `${webUrl(ctx, r)}/commit/${sha}`, sha })),
      repository: renderRepo(ctx, r),
      score,
      node_id: nodeId('C', c.sha),
    };
  },
  object: (ctx, c) => ({ url: `${repoUrl(ctx, repoOf(ctx, c.repoId))}/commits/${c.sha}`, type: 'Commit' }),
};

export const issueKind: Kind<Issue> = {
  qualifiers: new Set([...RESOURCE, 'in', 'is', 'state', 'label', 'author']),
  fields: [
    { name: 'title', property: 'title', weight: 3, texts: (i) => [i.title] },
    { name: 'body', property: 'body', weight: 1, texts: (i) => [i.body] },
    // "issues for title, body, comment body": a comment's match names the comment and its `body`.
    {
      name: 'comments', property: 'body', weight: 1, texts: (i) => i.comments,
      object: (ctx, i, n) => ({ url: `${repoUrl(ctx, repoOf(ctx, i.repoId))}/issues/comments/${i.id * 100 + n}`, type: 'IssueComment' }),
    },
  ],
  repoId: (i) => i.repoId,
  filter: (ctx, i, q) => issueFilter(ctx, i, q),
  sorts: {
    comments: (i) => i.comments.length,
    created: (i) => i.createdAt,
    updated: (i) => i.updatedAt,
    reactions: (i) => i.reactions,
    interactions: (i) => i.reactions + i.comments.length,
  },
  id: (i) => i.id,
  render: (ctx, i, score) => renderIssue(ctx, i, score),
  object: (ctx, i) => ({ url: `${repoUrl(ctx, repoOf(ctx, i.repoId))}/issues/${i.number}`, type: 'Issue' }),
  requiresIsQualifier: true,
};

/** Labels are searched inside one repository (repository_id), by keywords only. */
export const labelKind: Kind<Label> = {
  qualifiers: new Set(['in']),
  fields: [
    { name: 'name', property: 'name', weight: 3, texts: (l) => [l.name] },
    { name: 'description', property: 'description', weight: 1, texts: (l) => [l.description] },
  ],
  sorts: { created: (l) => l.createdAt, updated: (l) => l.updatedAt },
  id: (l) => l.id,
  render: (ctx, l, score) => {
    const { id, node_id, url, name, color } = renderLabel(ctx, l);
    return { id, node_id, url, name, color, default: ctx.fault('schema-label-item-default-string') ? String(l.isDefault) : l.isDefault, description: l.description, score };
  },
  object: (ctx, l) => ({ url: renderLabel(ctx, l).url, type: 'Label' }),
};

function loginsMatch(q: Qualifier[], name: string, login: string): boolean {
  return qualifierValues(q, name).every((v) => v === login.toLowerCase());
}

/** is:issue, is:pull-request / is:pr, is:open / is:closed, state:, label: (every one named), author:. Unknown is: values match nothing. */
function issueFilter(ctx: HandlerContext, i: Issue, q: Qualifier[]): boolean {
  const repo = repoOf(ctx, i.repoId);
  const is = (v: string): boolean => {
    switch (v) {
      case 'issue': return !i.pull;
      case 'pr': case 'pull-request': return i.pull;
      case 'open': case 'closed': return i.state === v;
      case 'public': return !repo.private;
      case 'private': return repo.private;
      default: return false;
    }
  };
  const labels = i.labels.map((l) => l.name.toLowerCase());
  return qualifierValues(q, 'is').every(is)
    && qualifierValues(q, 'state').every((s) => s === i.state)
    && qualifierValues(q, 'label').every((l) => labels.includes(l))
    && loginsMatch(q, 'author', i.user);
}

function renderLabel(ctx: HandlerContext, l: Label) {
  return {
    id: l.id,
    node_id: nodeId('LA', l.id),
    url: `${repoUrl(ctx, repoOf(ctx, l.repoId))}/labels/${encodeURIComponent(l.name)}`,
    name: l.name,
    color: l.color,
  };
}

function renderMilestone(ctx: HandlerContext, m: Milestone, r: Repo) {
  const url = `${repoUrl(ctx, r)}/milestones/${m.number}`;
  return {
    url,
    html_url: `${webUrl(ctx, r)}/milestone/${m.number}`,
    labels_url: `${url}/labels`,
    id: m.id,
    node_id: nodeId('MI', m.id),
    number: m.number,
    state: m.state,
    title: m.title,
    description: m.description,
    creator: user(ctx, m.creator),
    open_issues: m.openIssues,
    closed_issues: m.closedIssues,
    created_at: timestamp(m.createdAt),
    updated_at: timestamp(m.updatedAt),
    closed_at: m.closedAt === null ? null : timestamp(m.closedAt),
    due_on: timestamp(m.dueOn),
  };
}

function association(ctx: HandlerContext, r: Repo, login: string): string {
  if (r.owner === login) return 'OWNER';
  if (ctx.state.world.orgs.get(r.owner)?.members.includes(login)) return 'MEMBER';
  return r.collaborators.includes(login) ? 'COLLABORATOR' : 'NONE';
}

function renderIssue(ctx: HandlerContext, i: Issue, score: number): Record<string, unknown> {
  const r = repoOf(ctx, i.repoId);
  const url = `${repoUrl(ctx, r)}/issues/${i.number}`;
  const web = `${webUrl(ctx, r)}/${i.pull ? 'pull' : 'issues'}/${i.number}`;
  return {
    url,
    repository_url: repoUrl(ctx, r),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: web,
    id: i.id,
    node_id: nodeId(i.pull ? 'PR' : 'I', i.id),
    number: ctx.fault('schema-issue-number-string') ? String(i.number) : i.number,
    title: i.title,
    user: user(ctx, i.user),
    labels: i.labels.map((l) => renderLabel(ctx, l)),
    state: i.state,
    assignee: i.assignee ? user(ctx, i.assignee) : null,
    milestone: renderMilestone(ctx, i.milestone, r),
    comments: i.comments.length,
    created_at: timestamp(i.createdAt),
    updated_at: timestamp(i.updatedAt),
    closed_at: i.closedAt === null ? null : timestamp(i.closedAt),
    ...(i.pull ? {
      pull_request: {
        url: `${repoUrl(ctx, r)}/pulls/${i.number}`,
        html_url: web,
        diff_url: `${web}.diff`,
        patch_url: `${web}.patch`,
      },
    } : {}),
    body: i.body,
    score,
    locked: i.locked,
    author_association: association(ctx, r, i.user),
    state_reason: i.stateReason,
  };
}
