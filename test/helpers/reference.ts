/** Starts a reference for a test file and talks to it over real HTTP. */
import { afterAll, beforeAll } from 'vitest';
import { request } from 'undici';
import { startReference, type ReferenceOptions, type RunningReference } from '../../reference/server.js';

export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined for an empty body. */
  body: any;
  text: string;
}

export interface CallOptions {
  method?: string;
  token?: string | null;
  /** Full Authorization header value; overrides `token`. */
  authorization?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Default token: the profile's classic token with repo, notifications and security_events. */
export const TOKENS = {
  classic: 'ref-classic-full',
  classicPublic: 'ref-classic-public',
  classicBare: 'ref-classic-bare',
  orgMember: 'ref-classic-member',
  securityManager: 'ref-classic-security-manager',
  ssoUnauthorized: 'ref-classic-sso-unauthorized',
  fineGrained: 'ref-fine-grained',
  fineGrainedBare: 'ref-fine-grained-bare',
  appUser: 'ref-app-user',
  appInstallation: 'ref-app-installation',
  lockout: 'ref-locksmith',
  oauth: 'ref-oauth-app-token',
  invalid: 'ref-invalid-token',
} as const;

export async function call(base: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { accept: 'application/vnd.service+json', ...opts.headers };
  const token = opts.token === undefined ? TOKENS.classic : opts.token;
  if (opts.authorization) headers.authorization = opts.authorization;
  else if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (opts.body !== undefined) {
    payload = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await request(`${base}${path}`, { method: (opts.method ?? 'GET') as 'GET', headers, body: payload });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
  let body: unknown;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  return { status: res.statusCode, headers: flat, body, text };
}

/** Registers a reference for the surrounding describe block; `ref.url` is its API root. */
export interface ReferenceHandle {
  readonly url: string;
  readonly server: RunningReference;
  /** A request to the reference; the method defaults to GET, the token to the classic one. */
  get(path: string, opts?: CallOptions): Promise<Reply>;
}

export function useReference(options: ReferenceOptions = {}): ReferenceHandle {
  let server: RunningReference | undefined;
  beforeAll(async () => {
    server = await startReference({ port: 0, ...options });
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get url() {
      if (!server) throw new Error('reference not started');
      return server.url;
    },
    get server() {
      if (!server) throw new Error('reference not started');
      return server;
    },
    get: (path: string, opts?: CallOptions) => {
      if (!server) throw new Error('reference not started');
      return call(server.url, path, opts);
    },
  };
}
