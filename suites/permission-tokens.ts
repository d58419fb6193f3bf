/**
 * Which profile tokens lack or hold a permission, read from their declared `permissions`, and how
 * an X-Accepted-<Vendor>-Permissions value is judged against what an endpoint needs.
 */
import type { Endpoint } from '../spec/catalogue.js';
import { LEVEL_RANK } from '../spec/permissions.js';
import type { Reply } from '../core/client.js';
import type { Profile, TokenName } from '../core/profile.js';
import type { CheckContext } from '../core/suite.js';

export type Need = NonNullable<Endpoint['permission']>;

/** The profile's tokens that carry permissions rather than scopes. */
export const PERMISSION_TOKENS = ['fine_grained', 'fine_grained_bare', 'app_user', 'app_installation'] as const satisfies readonly TokenName[];

const declared = (profile: Profile, token: TokenName) => profile.tokens?.[token]?.permissions;

/** Tokens declared without the permission, or with a lower level only: each must be refused. */
export function lacking(profile: Profile, need: Need): TokenName[] {
  return PERMISSION_TOKENS.filter((n) => {
    const permissions = declared(profile, n);
    const level = permissions?.[need.name];
    return permissions !== undefined && (!level || LEVEL_RANK[level] < LEVEL_RANK[need.access]);
  });
}

/** Tokens declared with exactly the level needed; whether a higher level implies a lower one is not shown. */
export function holding(profile: Profile, need: Need): TokenName[] {
  return PERMISSION_TOKENS.filter((n) => declared(profile, n)?.[need.name] === need.access);
}

export const describeNeed = (need: Need) => `${need.name}=${need.access}`;

/**
 * Fails unless the header names the permission the endpoint needs, at its level when a level is
 * given. `absent` says what a missing header is: a failure, or information where the spec leaves
 * open whether the endpoint takes permissions at all.
 */
export function judgeHeader(t: CheckContext, e: Endpoint, reply: Reply, absent: 'fail' | 'info' = 'fail'): void {
  const name = t.names.acceptedPermissionsHeader;
  const need = e.permission!;
  const what = `${e.method} ${e.path}`;
  const header = reply.headers[name.toLowerCase()];
  if (header === undefined) return t[absent](`${what}: no ${name} header (status ${reply.status})`);
  // The spec spells the permission "Contents" in prose and security_events in code: case is not compared.
  const named = header.toLowerCase().split(/[,;]/).map((entry) => entry.trim().split('=').map((s) => s.trim()))
    .filter(([permission]) => permission === need.name.toLowerCase());
  if (!named.length) return t.fail(`${what}: ${name} is "${header}", which does not name ${need.name}`);
  if (named.some(([, level]) => level === need.access)) return;
  // The spec does not show the header's format: a bare name is information, a wrong level is not.
  if (named.some(([, level]) => level === undefined)) return t.info(`${what}: ${name} is "${header}", naming ${need.name} without a level`);
  t.fail(`${what}: ${name} is "${header}", not ${describeNeed(need)}`);
}
