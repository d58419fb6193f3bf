import { req, type Requirement } from './types.js';

/** Document 2's permissions for fine-grained and app tokens, as the suite enforces them (the matrix itself is spec/permissions.ts). */
export const PERMISSIONS: Requirement[] = [
  req('permissions.code-scanning', 'MUST', 2, 'Authentication',
    'App tokens need permission security_events, read for GET, write for PATCH. Fine-grained tokens follow the same matrix.'),
  req('permissions.imports-contents', 'MUST', 2, 'Authentication',
    'fine-grained tokens need repository permission Contents, read for GET endpoints, write for the others.'),
  req('permissions.uat-only', 'MUST', 2, 'Permission matrix for app tokens',
    'Token types: by default both UAT (user access token) and IAT (installation access token) may call the endpoint; [U] marks UAT only. … PUT, PATCH and DELETE R/import [U]; PATCH R/import/authors/{author_id} [U]; PATCH R/import/lfs [U]'),
  // The two halves of this sentence disagree on the other kinds (classic only, yet fine-grained and user
  // app tokens with Contents): which of them an import endpoint admits is observed, never failed. Both
  // halves admit the classic token: refusing it where another kind is admitted breaks either reading.
  req('permissions.imports-token-kinds', 'MUST', 2, 'Authentication',
    'Source imports: personal access token (classic) only; fine-grained tokens need repository permission Contents, read for GET endpoints, write for the others.'),
];
