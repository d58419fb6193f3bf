/** Runs `conformance` as a user does: a child process, its exit status and both output streams. */
import { spawn } from 'node:child_process';
import { packagePath } from '../../src/paths.js';

const BIN = packagePath('bin', 'conformance.js');

/** `env` is added to this process's environment; a run still going after `timeoutMs` is killed. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

export const lastLine = (s: string) => s.trim().split('\n').at(-1) ?? '';
