/**
 * The command blocks of a Markdown document (README.md, docs/guide-*.md): every fenced `sh` block,
 * where it starts, and the `<!-- recipe: name -->` comment right above it, if any. One extractor,
 * so the README's test and the guides' test read the same blocks the same way.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { PACKAGE_ROOT } from '../../core/paths.js';

export interface CommandLine {
  /** `file:line` of the line itself. */
  at: string;
  /** The command as it is typed: the trailing `# comment` left off. */
  command: string;
  /** The exit status a `# exits N` comment declares; 0 otherwise. */
  exits: number;
}

export interface CommandBlock {
  /** `file:line` of the opening fence, as a failure names it. */
  at: string;
  recipe?: string;
  /** The block as written, without its fences. */
  text: string;
  lines: CommandLine[];
}

export function commandBlocks(file: string): CommandBlock[] {
  const source = readFileSync(file, 'utf8').split('\n');
  const blocks: CommandBlock[] = [];
  for (let i = 0; i < source.length; i += 1) {
    // Commands go in `sh` blocks, which the tests run; another shell's fence would be run by none.
    if (/^```(bash|shell|console|zsh|shell-session)\b/.test(source[i]!)) throw new Error(`${relative(PACKAGE_ROOT, file)}:${i + 1}: write commands in a \`\`\`sh block, which a test runs`);
    if (source[i] !== '```sh') continue;
    const end = source.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${file}:${i + 1}: a sh block is never closed`);
    const body = source.slice(i + 1, end);
    const recipe = /^<!-- recipe: ([\w-]+) -->$/.exec(source[i - 1] ?? '')?.[1];
    const name = relative(PACKAGE_ROOT, file);
    blocks.push({
      at: `${name}:${i + 1}`,
      ...(recipe ? { recipe } : {}),
      text: body.join('\n'),
      lines: body.map((l, n) => ({ l, n })).filter(({ l }) => l.trim()).map(({ l, n }) => ({
        at: `${name}:${i + 2 + n}`,
        command: l.replace(/\s+#.*$/, '').trim(),
        exits: Number(/#\s*exits (\d+)/.exec(l)?.[1] ?? 0),
      })),
    });
    i = end;
  }
  return blocks;
}
