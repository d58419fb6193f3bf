/**
 * The README's recipes work as written: each fenced `sh` block after a `<!-- recipe: name -->`
 * comment runs, in order, in one empty folder, as an installed package's user runs it, with
 * `npx conformance` the repository's bin and the ports 8080 and 8081 free ones (so the test can run
 * beside others). A line ending in `&` is a server started in the background and waited for until
 * it prints `listening on`; `kill %N` stops the Nth of them (SIGTERM, as the shell sends); any
 * other line must exit 0. A recipe must stop what it starts and finish within RECIPE_MS; whatever
 * is left running is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagePath } from '../core/paths.js';

const RECIPE_MS = 90_000;
const LISTEN_MS = 20_000;
const STOP_MS = 15_000;
const BIN = packagePath('bin', 'conformance.js');

interface Recipe {
  name: string;
  lines: string[];
}

function recipes(readme: string): Recipe[] {
  return [...readme.matchAll(/<!-- recipe: ([\w-]+) -->\n```sh\n([\s\S]*?)```/g)].map((m) => ({
    name: m[1]!,
    lines: m[2]!.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean),
  }));
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A shell command as it runs here: `npx conformance` is this repository's bin, the README's ports are `ports`. */
function localize(line: string, ports: Record<string, number>): string {
  return line.replaceAll('npx conformance', `"${process.execPath}" "${BIN}"`).replace(/\b(8080|8081)\b/g, (p) => String(ports[p]));
}

interface Job {
  child: ChildProcess;
  output: string;
  exited: Promise<number | null>;
}

/** Runs in its own process group, so a kill reaches the shell and the server it started alike. */
function start(command: string, cwd: string): Job {
  const child = spawn('sh', ['-c', command], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const job: Job = { child, output: '', exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  const keep = (d: Buffer) => { job.output = (job.output + d.toString()).slice(-20_000); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  return job;
}

function signal(job: Job, sig: NodeJS.Signals): void {
  try {
    process.kill(-job.child.pid!, sig);
  } catch {
    // The group has gone already.
  }
}

const within = <T>(p: Promise<T>, ms: number, what: string) => Promise.race([
  p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms).unref()),
]);

async function listening(job: Job, line: string): Promise<void> {
  const deadline = Date.now() + LISTEN_MS;
  while (!/listening on /.test(job.output)) {
    if (job.child.exitCode !== null || Date.now() > deadline) throw new Error(`"${line}" did not start listening: ${job.output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const readme = readFileSync(packagePath('README.md'), 'utf8');
const found = recipes(readme);
const everyJob: Job[] = [];

describe('README recipes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'recipes-'));
  const ports: Record<string, number> = {};

  afterAll(() => everyJob.forEach((job) => signal(job, 'SIGKILL')));

  it('are marked: exporting the OpenAPI description, recording a cassette from the reference, then replaying it', () => {
    expect(found.map((r) => r.name)).toEqual(['openapi', 'record', 'replay']);
  });

  for (const recipe of found) {
    it(`${recipe.name} runs as written and stops what it starts`, async () => {
      ports['8080'] ??= await freePort();
      ports['8081'] ??= await freePort();
      const jobs: Job[] = [];
      const run = async () => {
        for (const line of recipe.lines) {
          const command = localize(line, ports);
          const kill = /^kill((?: %\d+)+)$/.exec(command);
          if (kill) {
            const stopped = kill[1]!.trim().split(' ').map((j) => jobs[Number(j.slice(1)) - 1]!);
            stopped.forEach((job) => signal(job, 'SIGTERM'));
            const codes = await within(Promise.all(stopped.map((job) => job.exited)), STOP_MS, line);
            expect(codes, `${line}: ${stopped.map((j) => j.output).join('\n')}`).toEqual(stopped.map(() => 0));
          } else if (command.endsWith('&')) {
            // exec: the job is the server itself, whose exit status the kill reports.
            const job = start(`exec ${command.slice(0, -1)}`, dir);
            jobs.push(job);
            everyJob.push(job);
            await listening(job, line);
          } else {
            const job = start(command, dir);
            everyJob.push(job);
            expect(await job.exited, `${line}:\n${job.output}`).toBe(0);
          }
        }
      };
      await within(run(), RECIPE_MS, recipe.name);
      expect(jobs.filter((j) => j.child.exitCode === null && j.child.signalCode === null), 'left running').toEqual([]);
    }, RECIPE_MS + 5_000);
  }
});
