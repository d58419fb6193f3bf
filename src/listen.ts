/** What the reference and the proxy share as HTTP servers: binding, and the path prefix form. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Binds `server` and resolves with its origin (`http://127.0.0.1:PORT`); a bind error (EADDRINUSE) rejects. */
export async function listen(server: Server, port = 0, host = '127.0.0.1'): Promise<{ origin: string; port: number }> {
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
