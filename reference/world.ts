/**
 * The reference's fixed cast: users, organizations, repositories and tokens. Area modules keep
 * their own state (issues, threads, events, alerts, imports) on top of this.
 * Everything is deterministic so runs, fixtures and tests repeat exactly.
 */
import type { TokenKind } from '../spec/tokens.js';

export interface Account {
  id: number;
  login: string;
  type: 'User' | 'Organization';
  /** Only for users: what a username+password login would send (always refused). */
  password?: string;
  siteAdmin?: boolean;
}

export interface Org extends Account {
  type: 'Organization';
  /** Organizations that enforce single sign-on refuse classic tokens not authorized for them. */
  enforcesSso: boolean;
  /** Owners and security managers may list the organization's alerts. */
  owners: string[];
  securityManagers: string[];
  members: string[];
}

export interface Repo {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  description: string;
  fork: boolean;
  archived: boolean;
  advancedSecurity: boolean;
  workflowAutomation: boolean;
  collaborators: string[];
  watchers: string[];
  /** A network renamed away from this name answers 301 to its new name. */
  movedTo?: string;
}

export interface Token {
  value: string;
  kind: TokenKind;
  login: string;
  /** Classic tokens: OAuth scopes. */
  scopes?: string[];
  /** Fine-grained and app tokens: permission name to access level. */
  permissions?: Record<string, 'read' | 'write' | 'admin'>;
  /** Classic tokens: the SSO-enforcing organizations this token is authorized for. */
  ssoAuthorized?: string[];
  /** App installation tokens act for an installation, counted separately. */
  installationId?: number;
  /** The key naming this token in the reference's own target profile. */
  role: string;
}

export const USERS: Account[] = [
  { id: 1, login: 'mona', type: 'User', password: 'mona-password-1' },
  { id: 2, login: 'hubot', type: 'User', password: 'hubot-password-2' },
  { id: 3, login: 'ada', type: 'User', password: 'ada-password-3' },
  { id: 4, login: 'grace', type: 'User', password: 'grace-password-4' },
  { id: 5, login: 'linus', type: 'User', password: 'linus-password-5' },
  { id: 6, login: 'locksmith', type: 'User', password: 'locksmith-password-6' },
  { id: 7, login: 'admin', type: 'User', password: 'admin-password-7', siteAdmin: true },
];

export const ORGS: Org[] = [
  // The sacrificial lockout user manages security of acme and pushes to acme/widgets, so it reaches every endpoint the lockout checks request.
  { id: 100, login: 'acme', type: 'Organization', enforcesSso: true, owners: ['mona'], securityManagers: ['grace', 'locksmith'], members: ['mona', 'grace', 'hubot'] },
  { id: 101, login: 'globex', type: 'Organization', enforcesSso: false, owners: ['hubot'], securityManagers: [], members: ['hubot', 'mona', 'linus'] },
];

const repo = (id: number, owner: string, name: string, extra: Partial<Repo> = {}): Repo => ({
  id, owner, name, private: false, description: `${name} of ${owner}`, fork: false, archived: false,
  advancedSecurity: true, workflowAutomation: false, collaborators: [owner === 'acme' || owner === 'globex' ? 'mona' : owner],
  watchers: ['mona', 'ada'], ...extra,
});

export const REPOS: Repo[] = [
  repo(1000, 'acme', 'widgets', { description: 'Widgets for every occasion', collaborators: ['mona', 'grace', 'hubot', 'locksmith'] }),
  repo(1001, 'acme', 'secret', { private: true, description: 'Private plans', collaborators: ['mona'] }),
  repo(1002, 'acme', 'archive-2019', { archived: true, description: 'Archived widget experiments' }),
  repo(1003, 'acme', 'plain', { advancedSecurity: false, description: 'No advanced security here' }),
  repo(1004, 'acme', 'automation', { workflowAutomation: true, description: 'Workflow automation enabled' }),
  repo(1005, 'acme', 'import-target', { description: 'Destination of a source import' }),
  repo(1006, 'globex', 'gizmo', { description: 'Gizmos and gadgets', collaborators: ['hubot', 'mona'] }),
  repo(1007, 'mona', 'dotfiles', { description: 'Configuration files' }),
  repo(1008, 'hubot', 'private-notes', { private: true, description: 'Hubot private notes', collaborators: ['hubot'] }),
  repo(1009, 'acme', 'old-widgets', { movedTo: 'acme/widgets', description: 'Renamed to widgets' }),
];

/** Token values are fixed and fake: the reference's own profile names them. */
export const TOKENS: Token[] = [
  { role: 'classic', value: 'ref-classic-full', kind: 'classic', login: 'mona', scopes: ['repo', 'notifications', 'security_events', 'read:org'], ssoAuthorized: ['acme'] },
  { role: 'classic_public', value: 'ref-classic-public', kind: 'classic', login: 'ada', scopes: ['public_repo'] },
  // No scope at all: refused where an endpoint names the scopes it needs.
  { role: 'classic_bare', value: 'ref-classic-bare', kind: 'classic', login: 'mona', scopes: [], ssoAuthorized: ['acme'] },
  { role: 'sso_unauthorized', value: 'ref-classic-sso-unauthorized', kind: 'classic', login: 'mona', scopes: ['repo', 'notifications', 'security_events', 'read:org'], ssoAuthorized: [] },
  { role: 'security_manager', value: 'ref-classic-security-manager', kind: 'classic', login: 'grace', scopes: ['security_events'], ssoAuthorized: ['acme'] },
  { role: 'org_member', value: 'ref-classic-member', kind: 'classic', login: 'hubot', scopes: ['repo', 'notifications', 'security_events'], ssoAuthorized: ['acme'] },
  // Read levels only: admitted to the reads, refused (a lower level) on every write the permission checks probe.
  { role: 'fine_grained', value: 'ref-fine-grained', kind: 'fine-grained', login: 'mona', permissions: { contents: 'read', security_events: 'read', metadata: 'read' } },
  { role: 'fine_grained_bare', value: 'ref-fine-grained-bare', kind: 'fine-grained', login: 'mona', permissions: { metadata: 'read' } },
  { role: 'app_user', value: 'ref-app-user', kind: 'app-user', login: 'mona', permissions: { contents: 'write', security_events: 'write', metadata: 'read' } },
  { role: 'app_installation', value: 'ref-app-installation', kind: 'app-installation', login: 'acme', installationId: 9001, permissions: { contents: 'write', security_events: 'write', metadata: 'read' } },
  // An OAuth app's token for ada: counted as authenticated for search limits like any other.
  { role: 'oauth', value: 'ref-oauth-app-token', kind: 'oauth', login: 'ada', scopes: ['public_repo'] },
  { role: 'lockout', value: 'ref-locksmith', kind: 'classic', login: 'locksmith', scopes: ['repo', 'notifications'] },
];

/** An OAuth app's client ID and secret, sent as Basic credentials: an authenticated caller acting as no user. */
export const APP_CLIENT = { clientId: 'Iv1.refclient0001', secret: 'ref-client-secret' } as const;

export class World {
  readonly users = new Map<string, Account>();
  readonly orgs = new Map<string, Org>();
  readonly repos = new Map<string, Repo>();
  readonly tokens = new Map<string, Token>();

  constructor() {
    for (const u of USERS) this.users.set(u.login, u);
    for (const o of ORGS) this.orgs.set(o.login, o);
    for (const r of REPOS) this.repos.set(`${r.owner}/${r.name}`, r);
    for (const t of TOKENS) this.tokens.set(t.value, t);
  }

  account(login: string): Account | undefined {
    return this.users.get(login) ?? this.orgs.get(login);
  }

  repo(owner: string, name: string): Repo | undefined {
    return this.repos.get(`${owner}/${name}`);
  }

  repoById(id: number): Repo | undefined {
    for (const r of this.repos.values()) if (r.id === id) return r;
    return undefined;
  }

  /** Live repositories (a moved network's old name is only a redirect). */
  liveRepos(): Repo[] {
    return [...this.repos.values()].filter((r) => !r.movedTo);
  }
}
