/** Bodies as a cassette stores them: JSON when they are JSON (diff-friendly), text when UTF-8, base64 otherwise. */
import { nestsDeeper } from '../core/bounds.js';
import type { StoredBody } from './interaction.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes bytes for storage; `contentType` absent means "parse JSON if it parses" (clients often omit it). */
export function storeBody(bytes: Buffer, contentType: string | undefined): StoredBody | undefined {
  if (bytes.length === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { encoding: 'base64', base64: bytes.toString('base64') };
  }
  // JSON nested deeper than the client's limit is kept as text: the walkers below (address rewriting, redaction) recurse.
  if ((contentType === undefined || /[/+]json\b/i.test(contentType)) && !nestsDeeper(text)) {
    try {
      return { encoding: 'json', json: JSON.parse(text) as unknown };
    } catch {
      // Declared JSON that does not parse is kept verbatim, so the replay is as broken as the original.
    }
  }
  return { encoding: 'text', text };
}

export function bodyBytes(body: StoredBody | undefined): Buffer {
  if (!body) return Buffer.alloc(0);
  switch (body.encoding) {
    case 'json': return Buffer.from(JSON.stringify(body.json));
    case 'text': return Buffer.from(body.text);
    case 'base64': return Buffer.from(body.base64, 'base64');
  }
}

/** Applies `fn` to every string of a body (JSON strings recursively, or the whole text); bytes are left alone. */
export function mapStrings(body: StoredBody | undefined, fn: (s: string) => string): StoredBody | undefined {
  if (!body) return undefined;
  if (body.encoding === 'json') return { encoding: 'json', json: mapJsonStrings(body.json, fn) };
  if (body.encoding === 'text') return { encoding: 'text', text: fn(body.text) };
  return body;
}

function mapJsonStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapJsonStrings(v, fn));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapJsonStrings(v, fn)]));
  }
  return value;
}
