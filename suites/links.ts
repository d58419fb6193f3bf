/**
 * Link-header URLs, the only server-provided URLs a check follows. A request goes to one only when it
 * stays on the target's API (same scheme, host and port, below the prefix, no userinfo): the spec's
 * links never point elsewhere, and following one that does would hand the token to another server.
 */
import type { Reply } from '../core/client.js';
import type { CheckContext } from '../core/suite.js';

/** The URL of a Link relation, e.g. rel="next". */
export function link(reply: Reply, rel: string): string | undefined {
  const m = new RegExp(`<([^>]+)>;\\s*rel="${rel}"`).exec(reply.headers.link ?? '');
  return m?.[1];
}

/** A Link URL as a path below the client's root, with its query; fails the check, and gives nothing to send, when it leaves the API. */
export function linkPath(t: CheckContext, url: string): string | undefined {
  const root = new URL(t.client.root);
  const prefix = root.pathname.replace(/\/+$/, '');
  const to = URL.canParse(url, root) ? new URL(url, root) : undefined;
  if (!to || to.origin !== root.origin || to.username || to.password || !to.pathname.startsWith(`${prefix}/`)) {
    return (t.fail(`Link points outside the API: ${url}`), undefined);
  }
  return `${to.pathname.slice(prefix.length)}${to.search}`;
}
