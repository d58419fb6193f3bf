/** Forwards one request to the upstream and buffers the whole answer (node:http, so nock can stand in for a server in tests). */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

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
  body: Buffer;
  durationMs: number;
}

/** Why the upstream gave no answer; the proxy turns it into a 502 naming the cause. */
export class UpstreamError extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

export class Upstream {
  private readonly agent: HttpAgent;
  private readonly base: URL;
  /** The API root without credentials and trailing slash: what fixtures record and replay rewrites. */
  readonly root: string;

  constructor(target: string, private readonly timeoutMs: number) {
    this.base = new URL(target);
    if (this.base.protocol !== 'http:' && this.base.protocol !== 'https:') throw new Error(`--target must be an http or https URL, got ${target}`);
    if (!(timeoutMs > 0)) throw new Error(`upstream timeout must be a positive number of milliseconds, got ${timeoutMs}`);
    const root = new URL(this.base);
    root.username = '';
    root.password = '';
    this.root = root.href.replace(/\/+$/, '');
    this.agent = this.base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  }

  /** `pathAndQuery` is below the target's prefix; `headers` are end-to-end and lower-case. */
  forward(method: string, pathAndQuery: string, headers: Record<string, string>, body: Buffer): Promise<UpstreamAnswer> {
    const url = new URL(this.base.href.replace(/\/+$/, '') + pathAndQuery);
    // Identity encoding keeps fixtures readable; a compressed answer anyway is decoded below.
    const sent: Record<string, string> = { ...headers, host: url.host, 'accept-encoding': 'identity' };
    if (body.length || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(method)) sent['content-length'] = String(body.length);
    else delete sent['content-length'];
    const started = performance.now();
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers: sent, agent: this.agent, timeout: this.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => reject(describe(err, url)));
        res.on('close', () => {
          if (!res.complete) reject(new UpstreamError(`upstream ${url.origin} closed the connection mid-answer`, 'ECONNRESET'));
        });
        res.on('end', () => {
          const headersOut = endToEnd(res.headers);
          let bytes: Buffer = Buffer.concat(chunks);
          try {
            bytes = decode(bytes, headersOut['content-encoding']);
          } catch (err) {
            reject(new UpstreamError(`upstream ${url.origin} sent a body that does not decode as ${headersOut['content-encoding']}: ${(err as Error).message}`, 'EBADBODY'));
            return;
          }
          delete headersOut['content-encoding'];
          delete headersOut['content-length'];
          resolve({ status: res.statusCode ?? 502, headers: headersOut, body: bytes, durationMs: Math.round(performance.now() - started) });
        });
      });
      req.on('timeout', () => req.destroy(new UpstreamError(`upstream ${url.origin} did not answer within ${this.timeoutMs} ms`, 'ETIMEDOUT')));
      req.on('error', (err) => reject(describe(err, url)));
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

function decode(bytes: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case '': case 'identity': return bytes;
    case 'gzip': case 'x-gzip': return gunzipSync(bytes);
    case 'deflate': return inflateSync(bytes);
    case 'br': return brotliDecompressSync(bytes);
    default: throw new Error(`unsupported content-encoding ${encoding}`);
  }
}
