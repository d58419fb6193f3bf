/**
 * Synthetic cassettes for the benchmarks: `size` fixture files written straight to a folder (no
 * temporary file and rename per fixture, as `Cassette.add` does), then opened once writable so the
 * Cassette builds index.json and cassette.json itself, as it does for files added by hand. Shape
 * `one-route`: one search per fixture, all on GET /search/issues (as a client test suite full of
 * searches records); `spread`: each fixture on a path of its own, off the catalogue, so every
 * fixture is alone on its route.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cassette } from '../proxy/cassette.js';
import type { Interaction, RecordedRequest } from '../proxy/interaction.js';
import { cassetteKeys } from '../proxy/server.js';

/** The upstream the synthetic fixtures claim to come from (never contacted; replay rewrites it). */
const UPSTREAM = 'http://upstream.invalid';
export const ACCEPT = 'application/vnd.service+json';

/** The query of fixture `i`; a replayed request for `i` sends exactly this. */
const searchQuery = (i: number) => `bench-${i}`;
/** The path and query a client sends for fixture `i` of a `one-route` cassette. */
export const searchPath = (i: number) => `/search/issues?q=${searchQuery(i)}`;

export type Shape = 'one-route' | 'spread';

/** `padding`: characters of filler text in each answer's issue body, to grow the answers. */
export function writeCassette(dir: string, size: number, shape: Shape = 'one-route', padding = 0): void {
  const keys = cassetteKeys();
  for (let i = 0; i < size; i++) {
    const request: RecordedRequest = shape === 'one-route'
      ? { method: 'GET', path: '/search/issues', query: { q: [searchQuery(i)] }, headers: { accept: ACCEPT } }
      : { method: 'GET', path: `/bench/items/${i}`, query: {}, headers: { accept: ACCEPT } };
    const key = keys.keyOf(request);
    const interaction: Interaction = {
      version: 1, key, sequence: 0, recordedAt: '2025-01-01T00:00:00.000Z', upstream: UPSTREAM, request,
      response: {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: {
          encoding: 'json',
          json: {
            total_count: 1, incomplete_results: false,
            items: [{ id: 100_000 + i, number: i, title: `Synthetic issue ${i}`, state: 'open', url: `${UPSTREAM}/repos/acme/widgets/issues/${i}`, body: 'x'.repeat(padding) }],
          },
        },
      },
      durationMs: 5,
    };
    const slug = request.path.slice(1).replace(/\//g, '-');
    writeFileSync(join(dir, `get-${slug}-${key.slice(0, 8)}-000.json`), `${JSON.stringify(interaction, null, 2)}\n`);
  }
  const opened = Cassette.open(dir, { ...keys, writable: true });
  if (opened.size !== size) throw new Error(`synthetic cassette holds ${opened.size} interactions, expected ${size}`);
}
