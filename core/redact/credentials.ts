/** The secret pieces of a credential as sent: an Authorization value, a cookie header, a URL's userinfo. */

interface Credential {
  scheme: string | null;
  /** What identifies the caller: the token, or `user:secret` of a Basic credential. */
  secret: string;
  /** Other forms of the same secret that could be echoed (the base64 text, the password alone). */
  parts: string[];
}

export function parseCredential(value: string): Credential {
  const m = /^(\S+)\s+(.+)$/.exec(value.trim());
  if (!m) return { scheme: null, secret: value.trim(), parts: [] };
  const [, scheme = '', rest = ''] = m;
  if (scheme.toLowerCase() !== 'basic') return { scheme, secret: rest.trim(), parts: [] };
  const decoded = Buffer.from(rest.trim(), 'base64').toString('utf8');
  return { scheme, secret: decoded, parts: [rest.trim(), ...userPassword(decoded)] };
}

/** The password of `user:password`, when there is one. */
export function userPassword(userinfo: string): string[] {
  const colon = userinfo.indexOf(':');
  return colon >= 0 ? [userinfo.slice(colon + 1)] : [];
}

/** The secret pieces of a masked header: the credential after the scheme, or each cookie value. */
export function headerSecrets(name: string, value: string): string[] {
  if (name === 'cookie') return value.split(';').map((p) => p.slice(p.indexOf('=') + 1).trim());
  // Each Set-Cookie starts with name=value; attributes after `;` (Path, Expires) are not secret.
  if (name === 'set-cookie') return [...value.matchAll(/(?:^|,)\s*[^=;,\s]+=([^;,]*)/g)].map((m) => (m[1] ?? '').trim());
  const m = /^\S+\s+(.+)$/.exec(value.trim());
  return [value.trim(), ...(m?.[1] ? [m[1]] : [])];
}

/** The credentials in a URL's userinfo (`https://user:password@host`): `user:password` and the password. */
export function urlSecrets(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const { username, password } = new URL(url);
  const raw = password ? `${username}:${password}` : username;
  let userinfo = raw;
  try {
    userinfo = decodeURIComponent(raw);
  } catch {
    // Not percent-encoding after all: the text as written is the secret.
  }
  return userinfo ? [...new Set([userinfo, raw, ...userPassword(userinfo)])] : [];
}
