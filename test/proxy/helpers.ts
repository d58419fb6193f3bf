/** Shared pieces of the proxy tests: temporary cassettes, the files in them, and a connection counter. */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function tempCassette(): string {
  return join(mkdtempSync(join(tmpdir(), 'cassette-')), 'fixtures');
}

/** Every JSON file of a cassette (interactions, index, meta) with its raw text. */
export function cassetteFiles(dir: string): { name: string; text: string }[] {
  return readdirSync(dir).filter((f) => f.endsWith('.json')).map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
}

/** A TCP server on `port` that only counts connections: stands where the upstream was, to prove nobody calls it. */
export async function countConnections(port: number): Promise<{ count: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server: Server = createServer((socket) => {
    n++;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { count: () => n, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
