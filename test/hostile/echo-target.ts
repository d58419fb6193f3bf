/**
 * A hostile target for redaction tests: it answers every request by echoing the credentials it
 * was sent in every form it can (raw, base64, percent-encoded, in a Location query), and adds
 * secrets of its own in the places redaction must know by name (form pairs, token fields, secret
 * headers, a private key). Bodies are bounded by what the tests send; it closes with the test.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { listen } from '../../core/listen.js';

/** A secret no output can hold by chance: random, with characters that percent-encoding changes. */
export const secret = (label: string) => `${randomBytes(9).toString('base64url')}/${label}+${randomBytes(6).toString('hex')}`;

/** The forms a leaked secret would take in an output: as is, base64, percent-encoded, and its first 8 characters (a cut). */
export function leakedForms(value: string): string[] {
  return [value, Buffer.from(value).toString('base64'), encodeURIComponent(value), value.slice(0, 8)];
}

/** Secrets the target makes up itself: masked because of where they stand, not because they were sent. */
export const OWN = {
  refreshToken: secret('refresh'), idToken: secret('id'), secret: secret('secret'), apiKey: secret('apikey'),
  headerKey: secret('x-api-key'), privateToken: secret('private'), authToken: secret('x-auth'), cookie: secret('cookie'),
  linkToken: secret('link'), formToken: secret('form-at'), formCode: secret('form-code'), keyMaterial: `MIIE${randomBytes(24).toString('base64')}`,
};

/** What the target echoes of a request's credential: the token, or for Basic the base64 text and `user:password`. */
function echoes(req: IncomingMessage): string[] {
  const auth = req.headers.authorization ?? '';
  const credential = auth.replace(/^\S+\s+/, '');
  const decoded = /^basic\s/i.test(auth) ? Buffer.from(credential, 'base64').toString('utf8') : credential;
  return [credential, decoded, encodeURIComponent(decoded), Buffer.from(decoded).toString('base64')].filter(Boolean);
}

export interface EchoTarget {
  url: string;
  /** Authorization values received, to prove the credentials were sent. */
  received: string[];
  /** Form bodies received. */
  forms: string[];
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;
/** Answers with a form, whatever it was sent. */
export const OAUTH_PATH = '/login/oauth/access_token';

export async function startEchoTarget(): Promise<EchoTarget> {
  const received: string[] = [];
  const forms: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.headers.authorization) received.push(req.headers.authorization);
      const echoed = echoes(req);
      const headers: Record<string, string> = {
        'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999', 'x-ratelimit-used': '1', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) + 3600),
        'x-ratelimit-resource': 'core', 'x-github-request-id': 'ABCD:1234:EF', etag: '"etag-value-1"',
        link: `<http://127.0.0.1/next?page=2&access_token=${OWN.linkToken}>; rel="next"`,
        location: `https://callback.example.invalid/done?token=${encodeURIComponent(echoed[1] ?? '')}&state=kept`,
        'x-request-echo': echoed.join(' '),
        'x-api-key': OWN.headerKey, 'private-token': OWN.privateToken, 'x-auth-token': OWN.authToken,
        'set-cookie': `sid=${OWN.cookie}; Path=/; HttpOnly`,
      };
      const form = /^application\/x-www-form-urlencoded/.test(req.headers['content-type'] ?? '');
      if (form || req.url === OAUTH_PATH) {
        if (form) forms.push(body);
        // An OAuth token endpoint: a form it was sent comes back, with tokens of its own.
        res.writeHead(200, { ...headers, 'content-type': 'application/x-www-form-urlencoded' });
        res.end(`${form ? `${body}&` : ''}access_token=${OWN.formToken}&refresh_token=${OWN.refreshToken}&code=${OWN.formCode}&token_type=bearer`);
        return;
      }
      res.writeHead(echoed.length && /^basic\s/i.test(req.headers.authorization ?? '') ? 401 : 200, { ...headers, 'content-type': 'application/json' });
      res.end(JSON.stringify({
        message: `credentials seen: ${echoed.join(' ')}`,
        documentation_url: `https://docs.example.invalid/auth?access_token=${encodeURIComponent(echoed[1] ?? '')}`,
        echo: echoed, refresh_token: OWN.refreshToken, id_token: OWN.idToken, secret: OWN.secret, apiKey: OWN.apiKey,
        note: `-----BEGIN RSA PRIVATE KEY-----\n${OWN.keyMaterial}\n-----END RSA PRIVATE KEY-----`,
      }));
    });
  });
  const { origin } = await listen(server, 0, '127.0.0.1');
  return {
    url: origin, received, forms,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
