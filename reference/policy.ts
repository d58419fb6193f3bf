/** Per-endpoint admission: token kinds, classic scopes, fine-grained/app permissions, single sign-on. */
import { createHash } from 'node:crypto';
import type { Endpoint } from '../spec/catalogue.js';
import { LEVEL_RANK } from '../spec/permissions.js';
import type { VendorNames } from '../spec/vendor.js';
import { ssoBlocks } from './access.js';
import { error, type Caller, type HandlerResult } from './http.js';
import type { Token, World } from './world.js';

/** Faults that stop one permission from being enforced, by permission name. */
const IGNORED: Record<string, string> = { security_events: 'permissions-security-events-ignored', contents: 'permissions-contents-ignored' };

/** The X-Accepted-<Vendor>-Permissions value for an endpoint, e.g. `security_events=read`. */
export function acceptedPermissions(endpoint: Endpoint, fault: (id: string) => boolean): string | undefined {
  const need = endpoint.permission;
  if (!need) return undefined;
  return `${need.name}=${fault('permissions-header-wrong') ? 'read' : need.access}`;
}

/** Whether a fine-grained or app token holds what an endpoint needs; a higher level implies the lower ones. */
function holds(token: Token, need: NonNullable<Endpoint['permission']>, fault: (id: string) => boolean): boolean {
  const ignored = IGNORED[need.name];
  if (ignored && fault(ignored)) return true;
  const held = token.permissions?.[need.name];
  if (!held) return false;
  if (need.name === 'security_events' && fault('permissions-read-admits-write')) return true;
  return LEVEL_RANK[held] >= LEVEL_RANK[need.access];
}

/** Returns a refusal, or undefined when the caller may call the endpoint. */
export function admit(endpoint: Endpoint, caller: Caller, fault: (id: string) => boolean): HandlerResult | undefined {
  const token = caller.token;
  if (endpoint.tokens === 'anonymous-ok') return undefined;
  if (!token) {
    // "Without a token or with insufficient permissions the answer is 404 or 403."
    return endpoint.tokens === 'classic-only' ? error(401, 'Requires authentication') : error(404, 'Not Found');
  }
  const anyToken = fault('notifications-any-token') || (endpoint.id !== 'notifications.list' && fault('notifications-variants-any-token'));
  if (endpoint.tokens === 'classic-only' && token.kind !== 'classic' && !anyToken) {
    return error(403, `Resource not accessible by ${token.kind === 'fine-grained' ? 'personal access token' : 'integration'}`);
  }
  if (token.kind === 'classic' || token.kind === 'oauth') {
    const scopes = endpoint.scopes ?? [];
    const scopeIgnored = (endpoint.area === 'notifications' && fault('notifications-scope-ignored'))
      || (endpoint.id === 'code-scanning.org-alerts' ? fault('alerts-org-scope-ignored') : endpoint.area === 'code-scanning' && fault('alerts-scope-ignored'));
    if (scopes.length && !scopes.some((s) => token.scopes?.includes(s)) && !scopeIgnored) {
      return error(403, `Missing scope: this endpoint needs one of ${scopes.join(', ')}`);
    }
    if (endpoint.area === 'imports' && endpoint.method === 'GET' && token.kind === 'classic' && fault('permissions-imports-reads-refuse-classic')) {
      return error(403, 'Resource not accessible by personal access token (classic): contents=read is needed');
    }
    return undefined;
  }
  const need = endpoint.permission;
  if (!need) return undefined;
  // "[U] marks UAT only": an installation token is refused even when it holds the permission.
  if (need.userToServerOnly && token.kind === 'app-installation' && !fault('permissions-uat-only-ignored')) {
    return error(403, 'Resource not accessible by integration: user-to-server tokens only');
  }
  if (!holds(token, need, fault)) {
    return error(403, `Resource not accessible by ${token.kind === 'fine-grained' ? 'personal access token' : 'integration'}`);
  }
  return undefined;
}

/** "On that 403, header `X-Service-SSO` holds a URL to authorize the token." */
export function ssoRefusal(
  world: World, caller: Caller, params: Record<string, string>, names: VendorNames, webBase: string, withHeader: boolean,
): HandlerResult | undefined {
  const owner = params.org ?? params.owner;
  if (!owner || !ssoBlocks(world, caller, owner)) return undefined;
  const request = createHash('sha1').update(`${caller.token?.value}:${owner}`).digest('hex').slice(0, 20);
  const result = error(403, 'Resource protected by organization SAML enforcement. You must grant your personal access token access to this organization.');
  if (withHeader) result.headers = { [names.ssoHeader]: `required; url=${webBase}/orgs/${owner}/sso?authorization_request=${request}` };
  return result;
}

/** The partial-results form, for requests spanning several organizations. */
export function ssoPartialHeader(names: VendorNames, orgIds: readonly number[]): Record<string, string> {
  return orgIds.length ? { [names.ssoHeader]: `partial-results; organizations=${orgIds.join(',')}` } : {};
}
