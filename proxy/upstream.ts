/**
 * Forwards one request to the upstream and buffers the whole answer, within bounds: the body's size
 * as sent and as decoded, the silence, the whole time, and the client's patience (an exchange it
 * left is ended). node:http's request is looked up at each request, so that nock stands in for a
 * server in tests whenever it was turned on, also after this module was loaded.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { bodyLimit, BoundedBuffer } from '../core/bounds.js';

/** node:https, and TLS under it, cost a proxy about 9 ms of its startup: loaded when an upstream is https. */
const https = (): typeof import('node:https') => createRequire(import.meta.url)('node:https') as typeof import('node:https');

/** Headers that belong to one connection, never forwarded or stored (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

/** Lower-case, single-valued headers without hop-by-hop ones (and those the Connection header names). */
export function endToEnd(headers: IncomingHttpHeaders): Record<string, string> {
  const named = String(headers.connection ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (v === undefined || HOP_BY_HOP.includes(name) || named.includes(name)) continue;
    out[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

export interface UpstreamAnswer {
  status: number;
  /** End-to-end headers, content-length and content-encoding removed (the body is decoded). */
  headers: Record<string, string>;
  /** The bytes as received, decoded from their content encoding. */
  body: Buffer;
  /** The content encoding the body arrived in (absent: identity). */
  contentEncoding?: string;
  durationMs: number;
}

/** Why the upstream gave no answer; the proxy turns it into a 502 naming the cause. */
export class UpstreamError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

/** Default of the whole time one upstream exchange may take, body included (--upstream-total-timeout). */
export const UPSTREAM_TOTAL_TIMEOUT_MS = 60_000;

export interface UpstreamLimits {
  /** Longest silence: before the answer starts, or between its bytes. */
  idleMs: number;
  /** Longest whole exchange: an upstream trickling bytes never falls silent. */
  totalMs: number;
  /** Largest body, counted as it arrives and again as it decodes (a compression bomb stops here). */
  maxBodyBytes: number;
}

export class Upstream {
  private readonly agent: http.Agent;
  private readonly base: URL;
  /** The API root without credentials and trailing slash: what fixtures record and replay rewrites. */
  readonly root: string;

  constructor(target: string, private readonly limits: UpstreamLimits) {
    this.base = new URL(target);
    if (this.base.protocol !== 'http:' && this.base.protocol !== 'https:') throw new Error(`--target must be an http or https URL, got ${target}`);
    const invalid = ([['upstream timeout', limits.idleMs, 'milliseconds'], ['upstream total timeout', limits.totalMs, 'milliseconds'], ['body limit', limits.maxBodyBytes, 'bytes']] as const)
      .find(([, value]) => !(value > 0));
    if (invalid) throw new Error(`${invalid[0]} must be a positive number of ${invalid[2]}, got ${invalid[1]}`);
    const root = new URL(this.base);
    root.username = '';
    root.password = '';
    this.root = root.href.replace(/\/+$/, '');
    this.agent = this.base.protocol === 'https:' ? new (https().Agent)({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  }

  /** `pathAndQuery` is below the target's prefix; `headers` are end-to-end and lower-case; `left` aborts when the client has gone. */
  forward(method: string, pathAndQuery: string, headers: Record<string, string>, body: Buffer, left?: AbortSignal): Promise<UpstreamAnswer> {
    const url = new URL(this.base.href.replace(/\/+$/, '') + pathAndQuery);
    // Identity encoding keeps fixtures readable; a compressed answer anyway is decoded below.
    const sent: Record<string, string> = { ...headers, host: url.host, 'accept-encoding': 'identity' };
    if (body.length || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method)) sent['content-length'] = String(body.length);
    else delete sent['content-length'];
    const { idleMs, totalMs, maxBodyBytes } = this.limits;
    const started = performance.now();
    const request = url.protocol === 'https:' ? https().request : http.request;
    return new Promise((resolve, reject) => {
      let decoder: Transform | undefined;
      let settled = false;
      // Every failure destroys the socket at once: nothing more of that answer is read or decoded.
      const fail = (err: UpstreamError) => {
        if (settled) return;
        settled = true;
        cleanup();
        req.destroy();
        decoder?.destroy();
        reject(err);
      };
      const failWith = (message: string, code: string) => fail(new UpstreamError(`upstream ${url.origin} ${message}`, code));
      const timer = setTimeout(() => failWith(`gave no complete answer within ${totalMs} ms`, 'ETIMEDOUT'), totalMs);
      const onLeft = () => failWith('was abandoned: the client closed its connection first', 'ECLIENTGONE');
      const cleanup = () => {
        clearTimeout(timer);
        left?.removeEventListener('abort', onLeft);
      };
      const req = request(url, { method, headers: sent, agent: this.agent, timeout: idleMs }, (res) => {
        const headersOut = endToEnd(res.headers);
        const encoding = headersOut['content-encoding'];
        const undecodable = (err: Error) => failWith(`sent a body that does not decode as ${encoding}: ${err.message}`, 'EBADBODY');
        const tooLarge = () => failWith(`sent a body larger than ${bodyLimit(maxBodyBytes)}`, 'EBODYLIMIT');
        try {
          decoder = decoderFor(encoding);
        } catch (err) {
          undecodable(err as Error);
          return;
        }
        let received = 0;
        if (decoder) {
          res.on('data', (c: Buffer) => {
            received += c.length;
            if (received > maxBodyBytes) tooLarge();
          });
          decoder.on('error', undecodable);
        }
        const decoded = new BoundedBuffer(maxBodyBytes);
        const out = decoder ? res.pipe(decoder) : res;
        out.on('data', (c: Buffer) => {
          if (!decoded.add(c)) tooLarge();
        });
        res.on('error', (err) => fail(describe(err, url)));
        res.on('close', () => {
          if (!res.complete) failWith('closed the connection mid-answer', 'ECONNRESET');
        });
        out.on('end', () => {
          if (settled) return;
          settled = true;
          cleanup();
          delete headersOut['content-encoding'];
          delete headersOut['content-length'];
          resolve({
            status: res.statusCode ?? 502, headers: headersOut, body: decoded.bytes(), durationMs: Math.round(performance.now() - started),
            ...(decoder ? { contentEncoding: encoding! } : {}),
          });
        });
      });
      req.on('timeout', () => failWith(`did not answer within ${idleMs} ms`, 'ETIMEDOUT'));
      req.on('error', (err) => fail(describe(err, url)));
      if (left?.aborted) onLeft();
      else left?.addEventListener('abort', onLeft);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function describe(err: Error, url: URL): UpstreamError {
  if (err instanceof UpstreamError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? 'EUPSTREAM';
  return new UpstreamError(`upstream ${url.origin} failed: ${err.message}`, code);
}

/** A streaming decoder, so decoding stops at the body limit instead of allocating a bomb's whole output. */
function decoderFor(encoding: string | undefined): Transform | undefined {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '': case 'identity': return undefined;
    case 'gzip': case 'x-gzip': return createGunzip();
    case 'deflate': return createInflate();
    case 'br': return createBrotliDecompress();
    default: throw new Error(`unsupported content-encoding ${encoding}`);
  }
}
