/**
 * A target that is the reference changed in one thing: a tiny HTTP front that answers some
 * requests itself (`answer`) and forwards the rest to an embedded reference, unchanged.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { Profile } from '../../src/profile.js';
import { listen } from '../../src/listen.js';
import { referenceProfile } from '../../reference/profile.js';
import { startReference, type ReferenceOptions } from '../../reference/server.js';

export interface CannedReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** The one change: a reply of the front's own, or undefined to forward the request. */
export type Answer = (req: IncomingMessage) => CannedReply | undefined;

export interface WrappedTarget {
  /** The front's origin. */
  url: string;
  /** The reference's profile, aimed at the front. */
  profile: Profile;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/** A JSON error reply, as the platform sends them. */
export function jsonError(status: number, message: string): CannedReply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ message }) };
}

export async function wrapReference(answer: Answer, options: ReferenceOptions = {}): Promise<WrappedTarget> {
  const reference = await startReference({ port: 0, pollIntervalSeconds: 1, ...options });
  const server = createServer(async (req, res) => {
    try {
      const own = answer(req);
      if (own) {
        res.writeHead(own.status, own.headers ?? {});
        res.end(own.body ?? '');
        return;
      }
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k, v]) => !HOP_BY_HOP.has(k) && typeof v === 'string')) as Record<string, string>;
      const upstream = await fetch(new URL(req.url!, reference.origin), { method: req.method!, headers, redirect: 'manual', ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
      const out: Record<string, string> = {};
      upstream.headers.forEach((v, k) => { if (!HOP_BY_HOP.has(k)) out[k] = v; });
      res.writeHead(upstream.status, out);
      res.end(Buffer.from(await upstream.arrayBuffer()));
    } catch (err) {
      res.writeHead(502).end(String(err));
    }
  });
  const { origin } = await listen(server, 0, '127.0.0.1');
  return {
    url: origin,
    profile: { ...referenceProfile(reference), base_url: origin },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await reference.close();
    },
  };
}
