/**
 * Writes docs/permissions.md, the permission matrix as a searchable table, from spec/permissions.ts:
 * `npm run docs:permissions`. A test compares the committed file with this output, so it cannot drift.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { MATRIX_CATEGORIES, PERMISSION_MATRIX, type Level, type MatrixRow } from '../spec/permissions.js';
import { packagePath } from '../core/paths.js';

export const PERMISSIONS_DOC = packagePath('docs', 'permissions.md');

/** The anchor a Markdown renderer gives a heading, e.g. `#organization-permissions-administration`. */
const anchor = (heading: string) => `#${heading.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')}`;
const count = (rows: readonly MatrixRow[], pred: (r: MatrixRow) => boolean) => rows.filter(pred).length;
const LEVELS: readonly Level[] = ['admin', 'write', 'read'];

const HEADER = `# App-token permission matrix

Generated from \`spec/permissions.ts\` by \`npm run docs:permissions\`; do not edit by hand.
The source is document 2, "Permission matrix for app tokens": which endpoints an app token can
call, with which permission and access level. Every row of the spec appears once.

- Paths are written in full: the spec's O is \`/orgs/{org}\`, R is \`/repos/{owner}/{repo}\`, B is
  \`/repos/{owner}/{repo}/branches/{branch}/protection\`; "GET and POST X" is two rows.
- **UAT only** \`[U]\`: only a user access token may call the endpoint, not an installation access token.
- **Multiple permissions** \`[+]\`: several permissions are required, or a different permission may be
  used. "listed twice" marks rows the spec lists twice; they are kept once.
- **Permission** is the name X-Accepted-Service-Permissions is expected to carry. The spec names only
  \`security_events\` and Contents, in prose (the suite compares names without regard to case); the
  others are the category in snake case, prefixed \`organization_\` for organization permissions.
- Not shown by the spec: the categories after Contents, the read rows of Contents, and whether write
  access implies read access.
- From the Authentication prose rather than the matrix: code scanning alerts need \`security_events\`
  (read for GET, write for PATCH); the source-import GET endpoints need \`contents\` read.
- The suite enforces the rows of the endpoints it covers (\`suites/permissions.ts\`); the reference serves them.
`;

function row(r: MatrixRow): string {
  const multiple = r.multiplePermissions ? `[+]${r.listedTwice ? ' listed twice' : ''}` : '';
  return `| ${r.category} | \`${r.permission}\` | ${r.access} | ${r.method} | \`${r.path}\` | ${r.uatOnly ? '[U]' : ''} | ${multiple} |`;
}

export function renderPermissionsDoc(): string {
  const out = [HEADER, '## Index', '',
    '| category | permission | rows | admin | write | read | UAT only | multiple permissions |', '|---|---|---|---|---|---|---|---|'];
  for (const category of MATRIX_CATEGORIES) {
    const rows = PERMISSION_MATRIX.filter((r) => r.category === category);
    const levels = LEVELS.map((l) => count(rows, (r) => r.access === l));
    out.push(`| [${category}](${anchor(category)}) | \`${rows[0]!.permission}\` | ${rows.length} | ${levels.join(' | ')} | ${count(rows, (r) => r.uatOnly)} | ${count(rows, (r) => r.multiplePermissions)} |`);
  }
  out.push(`| all | | ${PERMISSION_MATRIX.length} | ${LEVELS.map((l) => count(PERMISSION_MATRIX, (r) => r.access === l)).join(' | ')} | ${count(PERMISSION_MATRIX, (r) => r.uatOnly)} | ${count(PERMISSION_MATRIX, (r) => r.multiplePermissions)} |`);
  for (const category of MATRIX_CATEGORIES) {
    out.push('', `## ${category}`, '', '| category | permission | access | method | path | UAT only | multiple permissions |', '|---|---|---|---|---|---|---|');
    out.push(...PERMISSION_MATRIX.filter((r) => r.category === category).map(row));
  }
  return `${out.join('\n')}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(PERMISSIONS_DOC, renderPermissionsDoc());
  process.stdout.write(`wrote ${PERMISSIONS_DOC} (${PERMISSION_MATRIX.length} rows)\n`);
}
