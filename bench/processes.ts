/**
 * Servers under test in processes of their own: spawned, their address read from the first URL
 * they print, their resident memory read from /proc (Linux; elsewhere absent), killed at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface Child {
  url: string;
  /** When the process was spawned (performance.now()). */
  spawnedAt: number;
  /** Resident set size in bytes, when the platform tells. */
  rss(): number | undefined;
  /** CPU time the process has used so far (user + system), in milliseconds, when the platform tells. */
  cpuMs(): number | undefined;
  stop(): Promise<void>;
}

/** How long a server may take to print its address. */
const START_TIMEOUT_MS = 60_000;

export function spawnServer(args: readonly string[]): Promise<Child> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no address within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill();
      reject(new Error(`${args.join(' ')}: ${err.message}; output: ${output.slice(0, 500)}`));
    };
    child.stderr!.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
      const url = /http:\/\/[^\s)]+/.exec(output)?.[0];
      if (!url || !output.includes('\n')) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ url, spawnedAt, rss: () => rssOf(child), cpuMs: () => cpuOf(child), stop: () => stop(child) });
    });
    child.once('exit', (code) => fail(new Error(`exited with ${code}`)));
  });
}

function rssOf(child: ChildProcess): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Clock ticks per second of /proc/PID/stat's times: 100 on every Linux the project runs on. */
const TICKS_PER_SECOND = 100;

function cpuOf(child: ChildProcess): number | undefined {
  try {
    // Fields after the parenthesized command name: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  // The start-up failure handler goes first: this exit is wanted.
  child.removeAllListeners('exit');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  return exited;
}
