/**
 * Child-process entry for the servers the proxy is compared with, so each side of a comparison
 * has a process of its own, as the proxy does: `bare ANSWERS` serves captured answers (path →
 * status, headers, body) with nothing but node:http; `talkback TAPES HOST` runs talkback, which
 * records from HOST what its tapes lack and replays the rest. Prints its address, then serves
 * until killed.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { readAnswers } from './answers.js';

// CommonJS whose types describe an ES default export: required, it is the function the types call `default`.
const talkback = createRequire(import.meta.url)('talkback') as typeof import('talkback').default;

const [kind, source, host] = process.argv.slice(2);

if (kind === 'bare') {
  const answers = readAnswers(readFileSync(source!, 'utf8'));
  const server = createServer((req, res) => {
    const a = answers.get(req.url ?? '');
    if (!a) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(a.status, a.headers);
    res.end(a.body);
  });
  server.listen(0, '127.0.0.1', () => announce(server));
} else if (kind === 'talkback') {
  // talkback takes a port number: borrow a free one.
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const port = (probe.address() as AddressInfo).port;
    probe.close(() => {
      void talkback({ host: host!, path: source!, port, silent: true, summary: false, record: talkback.Options.RecordMode.NEW })
        .start(() => process.stdout.write(`http://127.0.0.1:${port}\n`));
    });
  });
} else {
  throw new Error(`usage: serve.js bare ANSWERS | talkback TAPES HOST (got ${kind})`);
}

function announce(server: Server): void {
  process.stdout.write(`http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
}
