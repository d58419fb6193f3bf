/**
 * Document 1, Authentication: "Token kinds: personal access token (fine-grained preferred, or
 * classic); app installation token and app user token; OAuth app token; the built-in token that a
 * workflow run receives (its permissions are set in the workflow)." and "Fine-grained tokens and
 * app tokens need per-endpoint permissions. Classic tokens need scopes."
 */
export const TOKEN_KINDS = {
  classic: { name: 'personal access token (classic)', grants: 'scopes' },
  'fine-grained': { name: 'personal access token (fine-grained)', grants: 'permissions' },
  'app-installation': { name: 'app installation token', grants: 'permissions' },
  'app-user': { name: 'app user token', grants: 'permissions' },
  // What an OAuth app token is granted by: not shown.
  oauth: { name: 'OAuth app token', grants: null },
  workflow: { name: 'the built-in token that a workflow run receives', grants: 'permissions' },
} as const;

export type TokenKind = keyof typeof TOKEN_KINDS;
