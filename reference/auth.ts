/** Reads the Authorization header: Bearer / token schemes, Basic user:token, refused passwords, lockout. */
import type { IncomingHttpHeaders } from 'node:http';
import { error, type Caller, type HandlerResult } from './http.js';
import type { ReferenceState } from './state.js';
import { APP_CLIENT, type Token } from './world.js';

export type AuthOutcome = { ok: true; caller: Caller } | { ok: false; result: HandlerResult; rateKey: string };

function callerFor(token: Token | null, remote: string): Caller {
  if (!token) return { token: null, login: null, rateKey: `ip:${remote}` };
  const rateKey = token.kind === 'app-installation' ? `installation:${token.installationId}` : `user:${token.login}`;
  return { token, login: token.kind === 'app-installation' ? null : token.login, rateKey };
}

const LOCKED = 'Maximum number of login attempts exceeded. Please try again later.';
const BAD = 'Bad credentials';

export function authenticate(headers: IncomingHttpHeaders, state: ReferenceState, remote: string, fault: (id: string) => boolean): AuthOutcome {
  const anonymousKey = `ip:${remote}`;
  const refuse = (status: number, message: string): AuthOutcome => ({ ok: false, result: error(status, message), rateKey: anonymousKey });
  const header = headers.authorization;
  if (!header) return { ok: true, caller: callerFor(null, remote) };

  const space = header.indexOf(' ');
  const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
  const credential = space < 0 ? '' : header.slice(space + 1).trim();
  const { world, lockout } = state;
  const invalid = (login: string | null): AuthOutcome => {
    if (fault('auth-invalid-as-anonymous')) return { ok: true, caller: callerFor(null, remote) };
    if (login && !fault('auth-no-lockout') && lockout.recordFailure(login)) return refuse(403, LOCKED);
    return refuse(fault('auth-invalid-403-first') ? 403 : 401, BAD);
  };
  const accept = (token: Token): AuthOutcome => {
    if (lockout.isLocked(token.login) && !fault('auth-lockout-spares-valid-token')) return refuse(403, LOCKED);
    return { ok: true, caller: callerFor(token, remote) };
  };

  if ((scheme === 'bearer' && !fault('auth-bearer-scheme-refused')) || (scheme === 'token' && !fault('auth-token-scheme-refused'))) {
    const token = world.tokens.get(credential);
    // The fault serves an unknown token as no token at all: endpoints open to anonymous callers then answer 200.
    if (!token && fault('auth-invalid-token-anonymous')) return { ok: true, caller: callerFor(null, remote) };
    return token ? accept(token) : invalid(null);
  }
  if (scheme === 'basic') {
    const decoded = Buffer.from(credential, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const login = colon < 0 ? decoded : decoded.slice(0, colon);
    const secret = colon < 0 ? '' : decoded.slice(colon + 1);
    // "client-ID-plus-secret requests count as authenticated for search limits": an app, acting as no user.
    if (login === APP_CLIENT.clientId && secret === APP_CLIENT.secret) return { ok: true, caller: { token: null, login: null, rateKey: `client:${login}`, client: login } };
    const user = world.users.get(login);
    if (!user) return invalid(null);
    const token = world.tokens.get(secret);
    if (token && token.login === login) return accept(token);
    if (user.password !== undefined && secret === user.password) {
      if (fault('auth-password-accepted')) {
        const any = [...world.tokens.values()].find((t) => t.login === login && t.kind === 'classic');
        if (any) return accept(any);
      }
      if (fault('auth-password-anonymous')) return { ok: true, caller: callerFor(null, remote) };
      if (lockout.isLocked(login)) return refuse(403, LOCKED);
      // "Username and password authentication is not supported and yields a 4xx error."
      return refuse(401, 'Username and password authentication is not supported; use a personal access token.');
    }
    return invalid(login);
  }
  return refuse(401, BAD);
}
