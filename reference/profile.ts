/** The reference's own target profile, derived from its world so nothing is written twice. */
import type { Profile, ProfileToken, TokenName } from '../core/profile.js';
import { SCENARIOS } from './areas/imports/plan.js';
import { DEFAULT_REF } from './areas/code-scanning/corpus.js';
import { COMMON_KEYWORD, LARGE_FILE_KEYWORD, OFF_BRANCH_KEYWORD } from './areas/search/corpus.js';
import { startReference, type RunningReference } from './server.js';
import { APP_CLIENT } from './world.js';

export function referenceProfile(running: RunningReference, vendor = 'service'): Profile {
  const { world, codeScanning, notifications } = running.state;
  const tokens: Partial<Record<TokenName, ProfileToken>> = {};
  let lockout: Profile['lockout_user'];
  for (const t of world.tokens.values()) {
    if (t.role === 'lockout') {
      const password = world.users.get(t.login)?.password;
      lockout = { login: t.login, token: t.value, ...(password ? { password } : {}) };
      continue;
    }
    tokens[t.role as TokenName] = {
      value: t.value, kind: t.kind, login: t.login,
      ...(t.scopes ? { scopes: t.scopes } : {}), ...(t.permissions ? { permissions: t.permissions } : {}),
    };
  }
  tokens.invalid = { value: 'ref-invalid-token' };
  const classicUser = world.users.get(tokens.classic?.login ?? '');
  const repos = world.liveRepos();
  const name = (pred: (r: (typeof repos)[number]) => boolean) => {
    const r = repos.find(pred);
    return r ? `${r.owner}/${r.name}` : undefined;
  };
  const moved = [...world.repos.values()].find((r) => r.movedTo);
  const publicRepo = repos.find((r) => !r.private && !r.archived && r.advancedSecurity && !r.workflowAutomation);
  const ssoOrg = [...world.orgs.values()].find((o) => o.enforcesSso);
  const url = new URL(running.url);
  return {
    base_url: running.origin,
    ...(url.pathname !== '/' ? { prefix: url.pathname } : {}),
    vendor,
    tokens,
    ...(lockout ? { lockout_user: lockout } : {}),
    ...(classicUser?.password ? { password_user: { login: classicUser.login, password: classicUser.password } } : {}),
    app_client: { client_id: APP_CLIENT.clientId, client_secret: APP_CLIENT.secret },
    resources: {
      ...(publicRepo ? {
        public_repo: `${publicRepo.owner}/${publicRepo.name}`,
        label_repository_id: publicRepo.id,
        alert_numbers: (codeScanning.alerts.get(publicRepo.id) ?? []).slice(0, 2).map((a) => a.number),
        alert_ref: (codeScanning.alerts.get(publicRepo.id) ?? []).flatMap((a) => a.instances).find((i) => i.ref !== DEFAULT_REF)?.ref,
      } : {}),
      thread_ids: [...notifications.threads.values()].filter((t) => t.login === tokens.classic?.login).slice(0, 2).map((t) => String(t.id)),
      // The vcs_url decides an import's course in the reference: one URL per scenario.
      import_urls: Object.fromEntries(['ok', ...SCENARIOS].map((s) => [s.replace('-', '_'), `https://svn.example.invalid/${s}/trunk`])),
      private_repo: name((r) => r.private)!,
      workflow_repo: name((r) => r.workflowAutomation)!,
      import_repo: name((r) => r.name === 'import-target')!,
      archived_repo: name((r) => r.archived)!,
      no_advanced_security_repo: name((r) => !r.advancedSecurity)!,
      ...(moved?.movedTo ? { moved_network: { from: `${moved.owner}/${moved.name}`, to: moved.movedTo } } : {}),
      ...(ssoOrg ? { org: ssoOrg.login, sso_org: ssoOrg.login } : {}),
      usernames: [...world.users.keys()],
      search_keyword: COMMON_KEYWORD,
      off_default_branch_keyword: OFF_BRANCH_KEYWORD,
      large_file_keyword: LARGE_FILE_KEYWORD,
    },
  };
}

/** The profile name that stands for the reference's own profile (`--profile reference`). */
export const BUILTIN_PROFILE = 'reference';

/**
 * The reference's profile aimed at another base URL (`--profile reference`): for targets that
 * answer as the reference does, such as a proxy replaying a cassette recorded from it.
 */
export async function referenceProfileAt(baseUrl: string, vendor = 'service'): Promise<Profile> {
  const reference = await startReference({ port: 0, vendor });
  await reference.close();
  return { ...referenceProfile(reference, vendor), base_url: baseUrl };
}
