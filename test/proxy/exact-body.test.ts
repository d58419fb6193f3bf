/** Response bodies stored byte-faithfully (readable JSON only where it reproduces the bytes), and masked without losing the rest of their bytes. */
import { describe, expect, it } from 'vitest';
import { bodyBytes, exactBody } from '../../proxy/body.js';
import { freshIdentityTable, Identities } from '../../proxy/identities.js';
import type { StoredBody } from '../../proxy/interaction.js';
import { ExchangeRedactor } from '../../proxy/redact.js';
import { Redactor } from '../../core/redact/redactor.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const stored = (text: string | Buffer, type: string | undefined = JSON_TYPE) => exactBody(typeof text === 'string' ? Buffer.from(text) : text, type);

describe('exactBody', () => {
  it('gives back every byte it was given', () => {
    const awkward = [
      '{"a":1.0}', '[12345678901234567890]', '{ "spaced" : [ 1 , 2 ] }', '{"b":1,"a":2}', '{"b":1,"1":2}', '{"dup":1,"dup":2}',
      '{"e":"caf\\u00e9"}', '{"e":"café 😀"}', '\ufeff{"bom":true}', '{\n\t"tab": 1\n}', '{"a":1}\r\n', 'not json {', '',
    ];
    for (const text of awkward) expect(bodyBytes(stored(text)).toString(), text).toBe(text);
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x7b]);
    expect(bodyBytes(stored(bytes)).equals(bytes)).toBe(true);
  });

  it('stores JSON as JSON when serializing it reproduces the bytes: compact, or indented by spaces, with a final newline or not', () => {
    expect(stored('{"a":[1,"x"]}')).toEqual({ encoding: 'json', json: { a: [1, 'x'] } });
    expect(stored('{\n  "a": 1\n}\n')).toEqual({ encoding: 'json', json: { a: 1 }, indent: 2, newline: true });
    expect(stored('[\n    1\n]')).toEqual({ encoding: 'json', json: [1], indent: 4 });
  });

  it('stores the exact text where JSON would not reproduce it, and text that is not declared JSON as text', () => {
    expect(stored('{"a":1.0}')).toEqual({ encoding: 'text', text: '{"a":1.0}' });
    expect(stored('{"b":1,"1":2}')).toEqual({ encoding: 'text', text: '{"b":1,"1":2}' });
    expect(stored('{"a":1}', 'text/plain')).toEqual({ encoding: 'text', text: '{"a":1}' });
    // Clients and servers may leave the type out: JSON that parses is JSON.
    expect(stored('{"a":1}', undefined)).toEqual({ encoding: 'json', json: { a: 1 } });
  });
});

describe('masking a stored response body', () => {
  const SECRET = 'body-secret-0123456789abcdef';
  const mask = (body: StoredBody | undefined) => new ExchangeRedactor(new Identities(freshIdentityTable()), { headers: [], fields: [] })
    .response(200, { 'content-type': JSON_TYPE }, body, new Redactor()).body;

  it('leaves a body without secrets as it was, unmarked', () => {
    const body = stored('{ "n" : 1.0, "url": "https://x.invalid/a?page=2" }');
    expect(mask(body)).toEqual(body);
  });

  it('masks a secret field on the text, keeping the other bytes (1.0, spacing), and notes it', () => {
    const text = `{ "n" : 1.0, "client_secret" : "${SECRET}", "note": "echo ${SECRET}" }`;
    const masked = mask(stored(text));
    expect(masked).toEqual({ encoding: 'text', text: text.split(SECRET).join('[REDACTED]'), redacted: true });
  });

  it('falls back to the masked value, re-serialized, where the text cannot be masked in place', () => {
    // A secret field holding a number, one holding a short value, and a field named twice (JSON.parse keeps the last).
    for (const text of ['{"n":1.0,"password":12345678}', '{"n":1.0,"token":"abc"}', `{"n":1.0,"token":"${SECRET}","token":null}`]) {
      const masked = mask(stored(text))!;
      expect(masked, text).toMatchObject({ encoding: 'json', redacted: true });
      expect(bodyBytes(masked).toString(), text).not.toMatch(/12345678|"abc"|body-secret/);
    }
  });

  it('masks a secret written in ASCII among bytes that are not UTF-8, keeping every other byte', () => {
    const around = (middle: string) => Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.from(middle, 'latin1'), Buffer.from([0xfe])]);
    const body = stored(around(`access_token=${SECRET}&page=2`));
    expect(body?.encoding).toBe('base64');
    const masked = mask(body)!;
    expect(masked).toMatchObject({ encoding: 'base64', redacted: true });
    expect(bodyBytes(masked).equals(around('access_token=[REDACTED]&page=2'))).toBe(true);
    const clean = stored(around('nothing secret'));
    expect(mask(clean)).toEqual(clean);
  });

  it('masks readable JSON as JSON, keeping its layout', () => {
    const masked = mask(stored(`{\n  "access_token": "${SECRET}"\n}`));
    expect(masked).toEqual({ encoding: 'json', json: { access_token: '[REDACTED]' }, indent: 2, redacted: true });
  });
});
