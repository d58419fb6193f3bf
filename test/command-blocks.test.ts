/**
 * The extractor and the shell session the README's and the guides' tests stand on: what a block
 * is, and that a line which does not do what it says fails, naming where it is written.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandBlocks, type CommandBlock } from './helpers/command-blocks.js';
import { ShellSession } from './helpers/shell-session.js';

const dir = mkdtempSync(join(tmpdir(), 'blocks-'));
const markdown = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
/** A server as the CLI's are: says `listening on` once it is, exits 0 on SIGTERM or SIGINT. */
const SERVER = `node -e "const s=require('http').createServer().listen(0,()=>console.log('listening on '+s.address().port));for(const g of ['SIGTERM','SIGINT'])process.on(g,()=>process.exit(0))"`;
const block = (...commands: string[]): CommandBlock => ({
  at: 'doc.md:1', text: commands.join('\n'), lines: commands.map((c, i) => ({ at: `doc.md:${i + 2}`, command: c.replace(/\s+#.*$/, ''), exits: Number(/#\s*exits (\d+)/.exec(c)?.[1] ?? 0) })),
});

describe('commandBlocks', () => {
  it('reads each sh block with its recipe name, each line with its place and declared exit status', () => {
    const file = markdown('a.md', 'Text\n<!-- recipe: one -->\n```sh\nnpx conformance --list   # every check\n\nfalse   # exits 1\n```\n```ts\nnot a command\n```\n```sh\ntrue\n```\n');
    const blocks = commandBlocks(file);
    expect(blocks.map((b) => [b.recipe, b.lines.map((l) => [l.at.split('/').at(-1), l.command, l.exits])])).toEqual([
      ['one', [['a.md:4', 'npx conformance --list', 0], ['a.md:6', 'false', 1]]],
      [undefined, [['a.md:12', 'true', 0]]],
    ]);
  });

  it('refuses commands fenced as another shell, which no test would run', () => {
    expect(() => commandBlocks(markdown('b.md', 'x\n```bash\nnpx conformance\n```\n'))).toThrow(/b\.md:2: write commands in a ```sh block/);
  });
});

describe('ShellSession', () => {
  const session = () => new ShellSession(dir, (c) => c);

  it('fails a line that exits otherwise than declared, naming where it is written', async () => {
    await expect(session().run(block('true', 'false   # exits 1'))).resolves.toBeUndefined();
    await expect(session().run(block('true', 'false'))).rejects.toThrow(/^doc\.md:3: false: exited 1, not 0/);
    await expect(session().run(block('true # exits 2'))).rejects.toThrow(/doc\.md:2: true: exited 0, not 2/);
  });

  it('numbers background jobs as a shell does, and kill %N stops that one', async () => {
    const s = session();
    await s.run(block(`${SERVER} &`, `${SERVER} &`, 'kill %2', `${SERVER} &`));
    expect(s.running()).toHaveLength(2);
    await s.run(block('kill %1 %2'));
    expect(s.running()).toEqual([]);
    await expect(s.run(block('kill %1'))).rejects.toThrow(/no job %1/);
  });

  it('stops a server typed in the foreground with Ctrl-C once it listens; one that never listens in the background fails', async () => {
    await expect(session().run(block(SERVER))).resolves.toBeUndefined();
    await expect(session().run(block('sleep 0.1 &'))).rejects.toThrow(/did not start listening/);
  });
});
