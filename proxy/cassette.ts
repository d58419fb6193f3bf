/**
 * A cassette is a folder: one pretty-printed JSON file per interaction, `index.json` (match key →
 * file names in sequence order, and each key's method and path) and `cassette.json` (the identity
 * salt and placeholders, and the redaction rules it was recorded with). Every write is a whole
 * file renamed into place, the interaction before the index, so a kill at any moment leaves whole,
 * parseable files.
 *
 * Startup reads the index alone when it is fresh (it lists exactly the files present, none changed
 * after it), and reads a key's fixtures when the key is first asked for. Otherwise (a file added or
 * edited by hand, or written just before a kill) every fixture is read, validated and keyed again,
 * and a writable cassette gets a new index. Freshness costs one listing of names and one stat per
 * fixture (which also refuses a link): the folder's time or the count of its files would be
 * cheaper, but an edit in place changes neither, and a stale index would serve an edited fixture
 * under its old key.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../core/fs-atomic.js';
import { isMethod, type Interaction, type RecordedRequest, type StoredBody } from './interaction.js';
import { DIGEST, freshIdentityTable, type IdentityTable } from './identities.js';
import { Lru } from './lru.js';

export const INDEX_FILE = 'index.json';
export const META_FILE = 'cassette.json';
/** How long new interactions (and new placeholders) may wait for the index (and meta) to be rewritten. */
const FLUSH_DELAY_MS = 200;
/** Parsed interactions kept (JSON characters): replay keeps the rendered answer instead, so few are needed (a recording, a near-miss report). */
const HELD_CHARS = 256 * 1024;

/** A cassette that cannot be used as it is; the message is one line and names the file. */
export class CassetteError extends Error {}

export interface CassetteMeta extends IdentityTable {
  version: 1;
  /** Extra redaction rules used while recording; replay applies them too, so keys agree. */
  redactHeaders: string[];
  redactFields: string[];
  /** The path prefix the recording proxy served under, which replay serves under too (absent: none). */
  prefix?: string;
}

export interface Entry {
  file: string;
  interaction: Interaction;
}

type Route = Pick<RecordedRequest, 'method' | 'path'>;
/** The method and path alone: the request they come from (headers, body) is not held. */
const routeOnly = ({ method, path }: Route): Route => ({ method, path });

export interface OpenOptions {
  /** Computes an interaction's key from its request (the stored key may predate a hand edit). */
  keyOf: (request: RecordedRequest) => string;
  /** Groups requests for the near-miss report by method and path, so a miss never scans every fixture. */
  routeOf: (request: Route) => string;
  /** Create the folder if missing and persist the index, meta and new interactions. */
  writable: boolean;
}

/**
 * One entry of index.json (`{"version":2,"interactions":[…]}`, an entry per line, so a recording's
 * diff is the lines of its keys): a match key, its `METHOD path` (routes known without reading the
 * fixtures), its file names in sequence order. Arrays rather than objects keyed by match key: a
 * proxy opening 10,000 fixtures parses and walks them in a third of the time.
 */
type IndexEntry = [key: string, request: string, ...files: string[]];

/** The index before version 2, still read. */
interface IndexFileV1 {
  version: 1;
  interactions: Record<string, string[]>;
  requests: Record<string, string>;
}

export class Cassette {
  /** Match key → file names in sequence order. */
  private readonly files = new Map<string, string[]>();
  /** Match key → its method and path, for the index written back; a read-only cassette keeps none (100,000 entries are megabytes). */
  private readonly requests = new Map<string, Route>();
  /** Route → the keys recorded on it. */
  private readonly routes = new Map<string, Set<string>>();
  /** File name → the interaction, once read, while recently used. */
  private readonly read = new Lru<string, Interaction>(HELD_CHARS, (i) => JSON.stringify(i).length);
  private indexDirty = false;
  private metaDirty = false;
  private flushTimer: NodeJS.Timeout | undefined;

  private constructor(readonly dir: string, readonly meta: CassetteMeta, private readonly options: OpenOptions) {}

  static open(dir: string, options: OpenOptions): Cassette {
    if (!existsSync(dir)) {
      if (!options.writable) throw new CassetteError(`fixtures folder ${dir} does not exist`);
      mkdirSync(dir, { recursive: true });
    } else if (!statSync(dir).isDirectory()) throw new CassetteError(`fixtures path ${dir} is not a folder`);
    const metaPath = join(dir, META_FILE);
    const meta = existsSync(metaPath) ? parseMeta(readJson(metaPath, META_FILE), META_FILE) : { version: 1 as const, ...freshIdentityTable(), redactHeaders: [], redactFields: [] };
    const cassette = new Cassette(dir, meta, options);
    if (options.writable) {
      // Temporary files of a killed writer are never whole interactions.
      for (const f of readdirSync(dir)) if (f.startsWith('.') && f.endsWith('.tmp')) rmSync(join(dir, f), { force: true });
      if (!existsSync(metaPath)) cassette.saveMeta();
    }
    cassette.load();
    return cassette;
  }

  /** Interactions recorded for a key, in sequence order. */
  get(key: string): Entry[] {
    return (this.files.get(key) ?? []).map((file) => ({ file, interaction: this.interaction(file, key) }));
  }

  /** File names recorded for a key, in sequence order, without reading them. */
  sequence(key: string): readonly string[] {
    return this.files.get(key) ?? [];
  }

  /** One interaction of `key` by its file name (see `sequence`). */
  entry(key: string, file: string): Entry {
    return { file, interaction: this.interaction(file, key) };
  }

  /** The first interaction of every key on a route (see `routeOf`). */
  near(route: string): Entry[] {
    return [...this.routes.get(route) ?? []].map((key) => {
      const file = this.files.get(key)![0]!;
      return { file, interaction: this.interaction(file, key) };
    });
  }

  entries(): Entry[] {
    return [...this.files.keys()].flatMap((key) => this.get(key));
  }

  get size(): number {
    let n = 0;
    for (const list of this.files.values()) n += list.length;
    return n;
  }

  saveMeta(): void {
    this.metaDirty = false;
    if (this.options.writable) writeFileAtomic(join(this.dir, META_FILE), `${JSON.stringify(this.meta, null, 2)}\n`);
  }

  /** The identity table gained a placeholder: saved with the next index write, not once per new caller (quadratic over a recording). */
  metaChanged(): void {
    this.metaDirty = true;
    this.scheduleFlush();
  }

  /**
   * Stores an interaction as the next in its key's sequence; `restart` makes it the first and drops
   * the key's older recordings (a new recording replaces an old one rather than extending it).
   */
  add(draft: Omit<Interaction, 'sequence'>, restart = false): Entry {
    const previous = this.files.get(draft.key) ?? [];
    const sequence = restart ? 0 : previous.length;
    // Spelled out so the file reads version, key, sequence first.
    const { version, key, ...rest } = draft;
    const interaction: Interaction = { version, key, sequence, ...rest };
    const file = fileName(interaction);
    writeFileAtomic(join(this.dir, file), `${JSON.stringify(interaction, null, 2)}\n`);
    this.read.set(file, interaction);
    this.put(key, routeOnly(interaction.request), restart ? [file] : [...previous, file]);
    this.indexDirty = true;
    this.scheduleFlush();
    if (restart) {
      for (const old of previous.filter((f) => f !== file)) {
        rmSync(join(this.dir, old), { force: true });
        this.read.delete(old);
      }
    }
    return { file, interaction };
  }

  private interaction(file: string, key: string): Interaction {
    let found = this.read.get(file);
    if (!found) {
      // Only files under a fresh index are read here; they were validated when written.
      found = { ...parseInteraction(readJson(join(this.dir, file), file), file), key };
      this.read.set(file, found);
    }
    return found;
  }

  /** `request` is kept as given (keys on one route share it); `route` is routeOf(request), when the caller has it already. */
  private put(key: string, request: Route, files: string[], route = this.options.routeOf(request)): void {
    this.files.set(key, files);
    if (this.options.writable) this.requests.set(key, request);
    this.routes.set(route, (this.routes.get(route) ?? new Set()).add(key));
  }

  /**
   * Writes a pending index (and identity table) now. Recording calls it on close; an index left stale
   * by a kill is harmless, since a stale index is detected on open and rebuilt from the fixture files.
   * A kill within the delay may lose the newest placeholders: their callers are numbered anew on replay.
   */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.metaDirty) this.saveMeta();
    if (this.indexDirty) this.saveIndex();
  }

  /** Rewriting the whole index per interaction would make a long recording quadratic: batch it. */
  private scheduleFlush(): void {
    this.flushTimer ??= setTimeout(() => {
      try {
        this.flush();
      } catch {
        // The folder went away or is full: the stale index is rebuilt from the files on open.
      }
    }, FLUSH_DELAY_MS).unref();
  }

  private saveIndex(): void {
    this.indexDirty = false;
    const entries = [...this.files.keys()].sort().map((k): IndexEntry => [k, `${this.requests.get(k)!.method} ${this.requests.get(k)!.path}`, ...this.files.get(k)!]);
    writeFileAtomic(join(this.dir, INDEX_FILE), `{"version":2,"interactions":[\n${entries.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`);
  }

  private load(): void {
    // Names only: a link among the fixtures is refused by the stat every file gets, in freshIndex or as it is read.
    const listed = readdirSync(this.dir).filter((name) => isFixtureName(name) && name !== INDEX_FILE && name !== META_FILE);
    const index = this.freshIndex(listed);
    if (index) {
      // Many keys share a route: each distinct `METHOD path` is split and grouped once.
      const routes = new Map<string, { request: Route; route: string }>();
      for (const entry of index) {
        const [key, line] = entry;
        // Sliced, not rest-destructured: a rest array keeps spare capacity, 15 MB over 100,000 keys.
        const files = entry.slice(2);
        let known = routes.get(line);
        if (!known) {
          const [method = '', path = ''] = line.split(' ');
          known = { request: { method, path }, route: this.options.routeOf({ method, path }) };
          routes.set(line, known);
        }
        this.put(key, known.request, files, known.route);
      }
      return;
    }
    const loaded = listed.map((file): Entry => {
      const interaction = parseInteraction(readJson(join(this.dir, file), file), file);
      return { file, interaction: { ...interaction, key: this.options.keyOf(interaction.request) } };
    });
    // Sequence order, then file name for duplicates added by hand.
    loaded.sort((a, b) => a.interaction.sequence - b.interaction.sequence || a.file.localeCompare(b.file));
    for (const { file, interaction } of loaded) {
      this.read.set(file, interaction);
      this.put(interaction.key, routeOnly(interaction.request), [...this.files.get(interaction.key) ?? [], file]);
    }
    if (this.options.writable) this.saveIndex();
  }

  /** The index's entries when it describes the files present: the same names, none modified after it was written. */
  private freshIndex(listed: string[]): IndexEntry[] | undefined {
    const path = join(this.dir, INDEX_FILE);
    ownFile(path, INDEX_FILE);
    let entries: IndexEntry[] | undefined;
    try {
      entries = indexEntries(JSON.parse(readFileSync(path, 'utf8')) as unknown);
    } catch {
      return undefined;
    }
    if (!entries) return undefined;
    const names = new Set<string>();
    const keys = new Set<string>();
    for (const entry of entries) {
      // A key listed twice (an index edited by hand) would hide the files of one: rebuilt instead.
      if (keys.size === keys.add(entry[0]).size) return undefined;
      for (let i = 2; i < entry.length; i++) {
        const file = entry[i]!;
        if (!isFixtureName(file)) throw new CassetteError(`${INDEX_FILE} in ${this.dir} lists ${JSON.stringify(file)}, which is not a fixture file name inside the folder`);
        names.add(file);
      }
    }
    if (names.size !== listed.length || !listed.every((f) => names.has(f))) return undefined;
    // A file edited in place changes no name: its time is the only sign, so every fixture's is read (one stat each).
    const written = statSync(path).mtimeMs;
    const folder = `${this.dir}/`;
    for (const file of listed) {
      const stat = lstatSync(folder + file);
      if (stat.isSymbolicLink()) throw linkError(folder + file, file);
      if (stat.mtimeMs > written) return undefined;
    }
    return this.keyedAsNow(entries[0]) ? entries : undefined;
  }

  /** One fixture re-keyed: an index written by a proxy that keyed requests otherwise is stale as a whole. */
  private keyedAsNow(sample: IndexEntry | undefined): boolean {
    const file = sample?.[2];
    if (!sample || !file) return true;
    try {
      return this.options.keyOf(parseInteraction(readJson(join(this.dir, file), file), file).request) === sample[0];
    } catch {
      return false;
    }
  }
}

/** `<method>-<path-slug>-<key8>-<seq>.json`: readable in a listing, stable across re-recordings, and only ever a plain name (every part slugged). */
function fileName(i: Interaction): string {
  return `${slug(i.request.method, 'method')}-${slug(i.request.path, 'root').slice(0, 60)}-${slug(i.key.slice(0, 8), 'key')}-${String(i.sequence).padStart(3, '0')}.json`;
}

const slug = (text: string, empty: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || empty;

/** A name the cassette's own files can have: no path separator, no dot file (nor `.` and `..`). */
const isFixtureName = (name: string) => name.endsWith('.json') && !name.startsWith('.') && !/[/\\\0]/.test(name);

/** A cassette holds its own files: a symbolic link could serve (or overwrite) one from anywhere. */
function ownFile(path: string, name: string): void {
  if (lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) throw linkError(path, name);
}

const linkError = (path: string, name: string) => new CassetteError(`${name} in ${path.slice(0, -name.length - 1)} is a symbolic link; a cassette's files must be its own`);

function readJson(path: string, name: string): unknown {
  ownFile(path, name);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (err) {
    throw new CassetteError(`fixture ${name} in ${path.slice(0, -name.length - 1)} is not valid JSON: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** The entries of an index file of either version; undefined when it is not one (then it is rebuilt from the fixtures). */
function indexEntries(raw: unknown): IndexEntry[] | undefined {
  if (!isObj(raw)) return undefined;
  const strings = (v: unknown, min: number): v is string[] => Array.isArray(v) && v.length >= min && v.every((s) => typeof s === 'string');
  if (raw.version === 2 && Array.isArray(raw.interactions)) {
    return raw.interactions.every((e) => strings(e, 3)) ? raw.interactions as IndexEntry[] : undefined;
  }
  const v1 = raw as Partial<IndexFileV1>;
  if (v1.version !== 1 || !isObj(v1.interactions) || !isObj(v1.requests)) return undefined;
  const entries = Object.entries(v1.interactions).map(([key, files]): unknown[] => [key, v1.requests![key], ...(Array.isArray(files) ? files : [null])]);
  return entries.every((e) => strings(e, 3)) ? entries as IndexEntry[] : undefined;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseMeta(raw: unknown, file: string): CassetteMeta {
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  if (isObj(raw) && raw.digest !== undefined && raw.digest !== DIGEST) throw new CassetteError(`${file}: unknown digest ${JSON.stringify(raw.digest)} (expected "${DIGEST}", or none for scrypt)`);
  if (!isObj(raw) || raw.version !== 1 || typeof raw.salt !== 'string' || !isObj(raw.placeholders)
    || !Object.values(raw.placeholders).every((p) => typeof p === 'string') || !strings(raw.redactHeaders) || !strings(raw.redactFields) || (raw.prefix !== undefined && typeof raw.prefix !== 'string')) {
    throw new CassetteError(`${file}: expected {version: 1, salt, placeholders, redactHeaders, redactFields, prefix?}`);
  }
  return raw as unknown as CassetteMeta;
}

/** Checks a fixture's shape, naming the first wrong field. */
function parseInteraction(raw: unknown, file: string): Interaction {
  const fail = (what: string): never => {
    throw new CassetteError(`fixture ${file}: ${what}`);
  };
  if (!isObj(raw)) return fail('not a JSON object');
  if (raw.version !== 1) fail(`unsupported version ${JSON.stringify(raw.version)} (expected 1)`);
  for (const f of ['key', 'recordedAt', 'upstream'] as const) if (typeof raw[f] !== 'string') fail(`"${f}" must be a string`);
  if (!Number.isInteger(raw.sequence) || (raw.sequence as number) < 0) fail('"sequence" must be a non-negative integer');
  if (typeof raw.durationMs !== 'number') fail('"durationMs" must be a number');
  const req = raw.request;
  if (!isObj(req)) return fail('"request" must be an object');
  if (typeof req.method !== 'string' || !isMethod(req.method)) fail('"request.method" must be an HTTP method (a token such as GET)');
  if (typeof req.path !== 'string' || !req.path.startsWith('/')) fail('"request.path" must be a path starting with /');
  if (!isObj(req.query) || !Object.values(req.query).every((v) => Array.isArray(v) && v.every((s) => typeof s === 'string'))) {
    fail('"request.query" must map names to arrays of strings');
  }
  checkHeaders(req.headers, 'request.headers', fail);
  checkBody(req.body, 'request.body', fail);
  const res = raw.response;
  if (!isObj(res)) return fail('"response" must be an object');
  if (!Number.isInteger(res.status) || (res.status as number) < 100 || (res.status as number) > 599) fail('"response.status" must be an HTTP status');
  checkHeaders(res.headers, 'response.headers', fail);
  checkBody(res.body, 'response.body', fail);
  if (res.contentEncoding !== undefined && typeof res.contentEncoding !== 'string') fail('"response.contentEncoding" must be a string');
  return raw as unknown as Interaction;
}

function checkHeaders(v: unknown, at: string, fail: (what: string) => never): void {
  if (!isObj(v) || !Object.entries(v).every(([k, s]) => typeof s === 'string' && k === k.toLowerCase())) fail(`"${at}" must map lower-case names to strings`);
}

function checkBody(v: unknown, at: string, fail: (what: string) => never): void {
  if (v === undefined) return;
  const b = v as Partial<StoredBody> & Obj;
  const ok = isObj(v) && ((b.encoding === 'json' && 'json' in b) || (b.encoding === 'text' && typeof b.text === 'string')
    || (b.encoding === 'base64' && typeof b.base64 === 'string'));
  if (!ok) fail(`"${at}" must be {encoding: "json", json} | {encoding: "text", text} | {encoding: "base64", base64}`);
  const { indent, newline } = b as { indent?: unknown; newline?: unknown };
  if (indent !== undefined && !(Number.isInteger(indent) && (indent as number) >= 1 && (indent as number) <= 10)) fail(`"${at}.indent" must be a number of spaces from 1 to 10`);
  if (newline !== undefined && newline !== true) fail(`"${at}.newline" must be true or absent`);
  if (b.redacted !== undefined && b.redacted !== true) fail(`"${at}.redacted" must be true or absent`);
}

