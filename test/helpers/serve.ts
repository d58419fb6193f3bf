/** Starts a long-running `conformance` command (reference, proxy) as a user does, and stops it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { packagePath } from '../../core/paths.js';

const BIN = packagePath('bin', 'conformance.js');

export interface Served {
  child: ChildProcess;
  /** The URL it printed as `listening on URL`. */
  url: string;
  /** The exit code, once it has exited. */
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** Resolves once the command prints `listening on URL`; rejects if it exits first or `timeoutMs` passes. */
export function serve(args: readonly string[], timeoutMs = 20_000): Promise<Served> {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  // 'close', not 'exit': read after `exited`, the output must be all of it.
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "listening on" within ${timeoutMs} ms: ${out}${err}`));
    }, timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, exited, stdout: () => out, stderr: () => err });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening: ${out}${err}`));
    });
  });
}

/** SIGTERM (a recording proxy writes what is in flight), then SIGKILL after `graceMs`; resolves once it has exited. */
export function stop(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
