/** What the reference and the proxy share as HTTP servers: binding, and the path prefix form. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How long an idle client connection is kept open. */
const KEEP_ALIVE_MS = 30_000;

/** Binds `server` and resolves with its origin (`http://127.0.0.1:PORT`); a bind error (EADDRINUSE) rejects. */
export async function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<{ origin: string; port: number }> {
  // Clients drop an idle connection after a few seconds (undici: 4 s); a server that closed it first,
  // at node's default 5 s, races a busy client reusing it ("other side closed"). Closing shuts idle ones at once.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const bound = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { origin: `http://${bound}:${address.port}`, port: address.port };
}

/** `/api/v3` for `api/v3/`, `/api/v3` or `//api/v3`; the empty string for none. */
export function normalizePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  return trimmed ? `/${trimmed}` : '';
}
