/** Runs `conformance` as a user does: a child process, its exit status and both output streams. */
import { spawn, type ChildProcess } from 'node:child_process';
import { packagePath } from '../../core/paths.js';

const BIN = packagePath('bin', 'conformance.js');

export interface Exit {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CLI process under way: its output so far, a wait for a line of stderr, and its exit. */
export interface RunningCli {
  child: ChildProcess;
  stderr(): string;
  /** Resolves once stderr contains `text`; rejects when the process exits first or `timeoutMs` passes. */
  untilStderr(text: string, timeoutMs: number): Promise<void>;
  exited: Promise<Exit>;
}

/** `env` is added to this process's environment. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  // 'close', not 'exit': the process may have exited before its last output was read from the pipes.
  let closed = false;
  const exited = new Promise<Exit>((resolve) => {
    child.on('close', (status, signal) => {
      closed = true;
      resolve({ status, signal, stdout, stderr });
    });
  });
  const untilStderr = (text: string, timeoutMs: number) => new Promise<void>((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const look = () => {
      if (stderr.includes(text)) return resolve();
      if (closed) return reject(new Error(`exited before "${text}" on stderr: ${stderr}`));
      if (Date.now() > deadline) return reject(new Error(`no "${text}" on stderr within ${timeoutMs} ms: ${stderr}`));
      setTimeout(look, 50);
    };
    look();
  });
  return { child, stderr: () => stderr, untilStderr, exited };
}

/** `env` is added to this process's environment; a run still going after `timeoutMs` is killed. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const running = startCli(args, env);
  const timer = setTimeout(() => running.child.kill('SIGKILL'), timeoutMs);
  const { status, stdout, stderr } = await running.exited;
  clearTimeout(timer);
  return { status, stdout, stderr };
}

export const lastLine = (s: string) => s.trim().split('\n').at(-1) ?? '';
