/**
 * Runs documented command lines as a user types them into one shell, in one folder: a line ending
 * in `&` is a server started in the background and waited for until it prints `listening on`
 * (`kill %N` stops the Nth, numbered as a shell numbers its jobs, with SIGTERM as the shell sends,
 * and it must exit 0); a server typed in the foreground is stopped with Ctrl-C (SIGINT) once
 * listening and must exit 0; any other line must exit with the status its `# exits N` comment
 * declares, else 0. `substitute` makes a documented line runnable here (the test declares how).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { packagePath } from '../../core/paths.js';
import type { CommandBlock, CommandLine } from './command-blocks.js';

const LISTEN_MS = 30_000;
const STOP_MS = 15_000;

interface Job {
  line: string;
  child: ChildProcess;
  output: string;
  exited: Promise<number | null>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A documented line as it runs here: `npx conformance` is this repository's bin (as an install
 * links it), and each documented port is the free one `ports` maps it to (so tests run side by side).
 */
export function asHere(command: string, ports: Record<string, number>): string {
  const documented = new RegExp(`\\b(${Object.keys(ports).join('|')})\\b`, 'g');
  return command.replace(documented, (p) => String(ports[p]))
    .replace(/^npx conformance\b/, `"${process.execPath}" "${packagePath('bin', 'conformance.js')}"`);
}

const within = <T>(p: Promise<T>, ms: number, what: string) => Promise.race([
  p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms).unref()),
]);

export class ShellSession {
  /** Background jobs by their shell number. */
  private readonly jobs = new Map<number, Job>();
  private readonly started: Job[] = [];

  constructor(private readonly dir: string, private readonly substitute: (command: string) => string) {}

  async run(block: CommandBlock, before: (line: CommandLine) => Promise<void> = async () => undefined): Promise<void> {
    for (const line of block.lines) {
      await before(line);
      await this.line(line, `${line.at}: ${line.command}`);
    }
  }

  /** Jobs started in the background and still running. */
  running(): string[] {
    return [...this.jobs.values()].filter((j) => j.child.exitCode === null && j.child.signalCode === null).map((j) => j.line);
  }

  /** Whatever is left running is killed (after a failure, or at the end), and waited for, so its ports are free again. */
  async killAll(): Promise<void> {
    const left = this.started.filter((j) => j.child.exitCode === null && j.child.signalCode === null);
    left.forEach((job) => signal(job, 'SIGKILL'));
    await within(Promise.all(left.map((j) => j.exited)), STOP_MS, 'killing what was left running').catch(() => undefined);
    this.jobs.clear();
  }

  private async line({ command: typed, exits }: CommandLine, where: string): Promise<void> {
    const command = this.substitute(typed);
    const kill = /^kill((?: %\d+)+)$/.exec(command);
    if (kill) {
      const numbers = kill[1]!.trim().split(' ').map((j) => Number(j.slice(1)));
      const stopped = numbers.map((n) => {
        const job = this.jobs.get(n);
        if (!job) throw new Error(`${where}: no job %${n}`);
        this.jobs.delete(n);
        return job;
      });
      stopped.forEach((job) => signal(job, 'SIGTERM'));
      const codes = await within(Promise.all(stopped.map((job) => job.exited)), STOP_MS, where);
      if (codes.some((c) => c !== 0)) throw new Error(`${where}: exited ${codes.join(', ')}\n${stopped.map((j) => j.output).join('\n')}`);
      return;
    }
    const background = command.endsWith('&');
    // exec: the job is the command itself, whose exit status a kill reports.
    const job = this.start(`exec ${background ? command.slice(0, -1) : command}`, typed);
    if (background) {
      // A shell numbers a new job one past the highest still listed.
      this.jobs.set(Math.max(0, ...this.jobs.keys()) + 1, job);
      if (!(await listening(job, LISTEN_MS))) throw new Error(`${where}: did not start listening:\n${job.output}`);
      return;
    }
    if (await listening(job)) {
      signal(job, 'SIGINT');
      const code = await within(job.exited, STOP_MS, where);
      if (code !== 0) throw new Error(`${where}: a server stopped with Ctrl-C exited ${code}:\n${job.output}`);
      return;
    }
    const code = await job.exited;
    if (code !== exits) throw new Error(`${where}: exited ${code}, not ${exits}:\n${job.output}`);
  }

  /** Runs in its own process group, so a signal reaches the shell and what it started alike. */
  private start(command: string, line: string): Job {
    const child = spawn('sh', ['-c', command], { cwd: this.dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const job: Job = { line, child, output: '', exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
    const keep = (d: Buffer) => { job.output = (job.output + d.toString()).slice(-20_000); };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.started.push(job);
    return job;
  }
}

/** True once the job prints `listening on`; false when it exits first, or (given a limit) stays silent past it. */
async function listening(job: Job, limitMs = Infinity): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (/listening on /.test(job.output)) return true;
    if (job.child.exitCode !== null || job.child.signalCode !== null) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

function signal(job: Job, sig: NodeJS.Signals): void {
  try {
    process.kill(-job.child.pid!, sig);
  } catch {
    // The group has gone already.
  }
}
