/** Hostile HTTP servers for the bounds tests: each misbehaves one way, and says when each answer's connection closed. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { listen } from '../../core/listen.js';
import { MB } from '../../core/bounds.js';

export interface Hostile {
  url: string;
  /** One per request, in order of arrival: settles when that response closed (finished, or its connection gone). */
  closed: Promise<void>[];
  close(): Promise<void>;
}

export async function hostileServer(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<Hostile> {
  const closed: Promise<void>[] = [];
  const server = createServer((req, res) => {
    closed.push(new Promise((resolve) => res.on('close', () => resolve())));
    answer(req, res);
  });
  const { origin } = await listen(server);
  return {
    url: origin, closed,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes JSON-looking bytes for as long as the reader takes them (respecting backpressure), never ending. */
export function endless(res: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, '[');
  res.writeHead(200, { 'content-type': 'application/json' });
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

/** One byte every `everyMs`, never ending: never silent long enough for an idle timeout. */
export function trickle(res: ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => res.write(' '), everyMs);
  res.on('close', () => clearInterval(timer));
}

/** A JSON array nested `depth` levels deep. */
export function deepJson(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

export const GZIP_BOMB_BYTES = 1024 * MB;
const MEMBER_BYTES = 64 * MB;
let bomb: Buffer | undefined;
/** GZIP_BOMB_BYTES of zeros as about a megabyte of gzip: one member of 64 MB, repeated (gunzip reads the members as one body). */
export function gzipBomb(): Buffer {
  bomb ??= Buffer.concat(Array<Buffer>(GZIP_BOMB_BYTES / MEMBER_BYTES).fill(gzipSync(Buffer.alloc(MEMBER_BYTES), { level: 9 })));
  return bomb;
}

/** Settles with `promise`, or rejects naming `what` after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
