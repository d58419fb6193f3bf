/**
 * Bodies as a cassette stores them. A response is stored byte-faithfully (`exactBody`): as JSON a
 * person can read and edit only when serializing that JSON gives back the very bytes received,
 * otherwise as the exact text, or base64 when it is not UTF-8. A request is stored as JSON whenever
 * it parses (`storeBody`): only its meaning is matched, and its bytes are forwarded as sent.
 */
import { nestsDeeper } from '../core/bounds.js';
import type { StoredBody } from './interaction.js';

/** Fatal: bytes that are not UTF-8 go to base64; ignoreBOM: a byte order mark is part of the text, kept. */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of UTF-8 bytes, or undefined for other bytes. */
function textOf(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const declaresJson = (contentType: string | undefined) => contentType === undefined || /[/+]json\b/i.test(contentType);

/**
 * JSON text parsed, or undefined for text that is not JSON, or nested deeper than the client's
 * limit (the walkers that follow, address rewriting and redaction, would overflow the stack).
 */
export function parseJson(text: string): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return nestsDeeper(value) ? undefined : { value };
}

/** Decodes a request body for storage; `contentType` absent means "parse JSON if it parses" (clients often omit it). */
export function storeBody(bytes: Buffer, contentType: string | undefined): StoredBody | undefined {
  if (bytes.length === 0) return undefined;
  const text = textOf(bytes);
  if (text === undefined) return { encoding: 'base64', base64: bytes.toString('base64') };
  // Declared JSON that does not parse is kept verbatim, so the replay is as broken as the original.
  const parsed = declaresJson(contentType) ? parseJson(text) : undefined;
  return parsed ? { encoding: 'json', json: parsed.value } : { encoding: 'text', text };
}

/** A response body stored so that `bodyBytes` gives back exactly `bytes` (1.0, integers past 2^53, key order and spacing kept). */
export function exactBody(bytes: Buffer, contentType: string | undefined): StoredBody | undefined {
  if (bytes.length === 0) return undefined;
  const text = textOf(bytes);
  if (text === undefined) return { encoding: 'base64', base64: bytes.toString('base64') };
  const parsed = declaresJson(contentType) ? parseJson(text) : undefined;
  const layout = parsed && layoutOf(text, parsed.value);
  return layout ? { encoding: 'json', json: parsed.value, ...layout } : { encoding: 'text', text };
}

/** How `text` lays out `json`, when JSON.stringify lays it out so (compact, or indented by spaces, with a final newline or not). */
function layoutOf(text: string, json: unknown): { indent?: number; newline?: true } | undefined {
  const newline = text.endsWith('\n');
  const body = newline ? text.slice(0, -1) : text;
  const indent = /^[[{]\n( +)/.exec(body)?.[1]?.length;
  if (JSON.stringify(json, null, indent) !== body) return undefined;
  return { ...(indent ? { indent } : {}), ...(newline ? { newline } : {}) };
}

export function bodyBytes(body: StoredBody | undefined): Buffer {
  if (!body) return Buffer.alloc(0);
  switch (body.encoding) {
    case 'json': return Buffer.from(`${JSON.stringify(body.json, null, body.indent)}${body.newline ? '\n' : ''}`);
    case 'text': return Buffer.from(body.text);
    case 'base64': return Buffer.from(body.base64, 'base64');
  }
}

/** `fn` applied to a body that is UTF-8 text, on its text, every other byte kept; other bytes (an image, an archive) are left alone. */
export function rewriteText(bytes: Buffer, fn: (text: string) => string): Buffer {
  const text = textOf(bytes);
  if (text === undefined) return bytes;
  const out = fn(text);
  return out === text ? bytes : Buffer.from(out);
}
