/** Who may see what: private repositories and single sign-on. */
import type { Caller } from './http.js';
import type { Repo, World } from './world.js';

/** Whether the caller may read a repository (public ones are open to all, anonymous included). */
export function canRead(world: World, caller: Caller, repo: Repo): boolean {
  if (!repo.private) return true;
  const token = caller.token;
  if (!token) return false;
  if (token.kind === 'app-installation') return token.login === repo.owner;
  if (!caller.login || !repo.collaborators.includes(caller.login)) return false;
  if (token.kind === 'classic' || token.kind === 'oauth') return token.scopes?.includes('repo') ?? false;
  return token.permissions?.metadata !== undefined;
}

/**
 * "A classic personal access token must be authorized for an organization that enforces it;
 * otherwise 404 or 403." Fine-grained and app tokens are authorized automatically.
 */
export function ssoBlocks(world: World, caller: Caller, ownerLogin: string): boolean {
  const org = world.orgs.get(ownerLogin);
  if (!org?.enforcesSso) return false;
  const token = caller.token;
  // SAML enforcement governs the organization's members; outsiders see public data as anyone does.
  if (!token || token.kind !== 'classic' || !org.members.includes(token.login)) return false;
  return !(token.ssoAuthorized ?? []).includes(org.login);
}
