/** How suites declare checks, and the context a check runs with. */
import { matchEndpoint, type Area } from '../spec/catalogue.js';
import type { Requirement } from '../spec/requirements/index.js';
import { requirement as lookupRequirement } from '../spec/requirements/index.js';
import type { VendorNames } from '../spec/vendor.js';
import type { Client, Reply, RequestOptions } from './client.js';
import type { Journal } from './journal.js';
import type { Finding, SkipReason } from './model.js';
import type { Profile, ProfileResources, TokenName } from './profile.js';

export interface CheckSpec {
  /** Stable id, unique across suites. */
  id: string;
  title: string;
  /** Requirement id whose sentence this check enforces. */
  requirement: string;
  needs?: {
    tokens?: TokenName[];
    resources?: (keyof ProfileResources)[];
    /** Judges public data only: requests that name no token go anonymously when the profile has no usable classic token. */
    anonymous?: boolean;
    /** Reads rate-limit status or counts: skipped where the target has rate limiting off. */
    rateLimiting?: boolean;
    /** Sends a vendor media type on purpose: skipped where the target refuses the recommended one. */
    vendorMediaType?: boolean;
    /** Sends tokens as "Bearer <TOKEN>" on purpose: skipped where the target accepts only "token <TOKEN>". */
    bearerScheme?: boolean;
  };
  /** Changes the target, in this area (spec/catalogue.ts WRITE_EFFECTS: what else that changes): runs only with --allow-writes. */
  writes?: Area;
  /**
   * Reads, but where writes are allowed also changes these areas: an import started to read
   * (suites/requests.ts ensureImport), the lockout's per-endpoint controls (each put back). It runs
   * without --allow-writes too; with it, it is kept apart from the polls those writes could disturb.
   */
  mayWrite?: readonly Area[];
  /** Observation of behaviour the spec does not show: the outcome is info, never fail. */
  observes?: boolean;
  /** Runs only when the user opts in (`--exhaust-rate-limit`): it spends a rate-limit window on purpose. */
  exhausts?: boolean;
  /**
   * Reads, waits out X-Poll-Interval and sends the read's validator back, on state of its own (it
   * changes nothing and needs nothing another check leaves): the run starts every such check at the
   * turn of the first, so their waits are one. Names the area it polls: no write that could change
   * it runs between its read and its conditional request.
   */
  polls?: Area;
  run(t: CheckContext): Promise<void>;
}

/** The areas a check may change where writes are allowed: what it writes, or what it may write besides reading. */
export function areasWritten(spec: Pick<CheckSpec, 'writes' | 'mayWrite'>): readonly Area[] {
  return spec.writes ? [spec.writes] : spec.mayWrite ?? [];
}

/** The suite a check belongs to for users (--suite, --list, reports): its id up to the first dot. */
export function suiteOf(checkId: string): string {
  return checkId.split('.', 1)[0]!;
}

/** A scenario module: checks that share setup or must run in a place of the run order (suites/index.ts). */
export interface Suite {
  /** The module's name (tests group checks by it); users see suiteOf(check id) instead. */
  name: string;
  description: string;
  /** Built per run so checks can be generated from the catalogue and the profile. */
  checks(profile: Profile): CheckSpec[];
  /**
   * Its checks share no state and need no order among themselves (each sets up and puts back what
   * it uses), so `--shard` may split them one by one; otherwise the module stays whole in one shard.
   */
  independent?: boolean;
}

/** Methods that change the target where the catalogue does not say (a path it does not list): sent only as declared (CheckContext.request). */
const WRITING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Thrown by `t.skip` to end a check early. */
export class SkipSignal extends Error {
  constructor(readonly reason: SkipReason, message: string) {
    super(message);
  }
}

export class CheckContext {
  readonly failures: Finding[] = [];
  readonly warnings: Finding[] = [];
  readonly notes: Finding[] = [];
  /** What the check could not judge (a failed control, nothing to look at): without failures, it is skipped as inconclusive. */
  readonly unjudged: Finding[] = [];

  constructor(
    readonly spec: CheckSpec,
    readonly client: Client,
    readonly profile: Profile,
    readonly names: VendorNames,
    /** Changes made by writing checks, undone at the end of the run. */
    readonly journal: Journal,
    /** Strict mode: fields the spec does not describe are reported as information. */
    readonly strict = false,
    /** Whether the run may change the target (for read checks that need something to read). */
    readonly writesAllowed = false,
    /** Requests that name no token go anonymously (an anonymous-capable check without a usable classic token). */
    readonly anonymous = false,
    /** Tokens of the profile the preflight found the target rejects. */
    private readonly rejected: ReadonlySet<string> = new Set(),
  ) {}

  /** Whether the profile names the token and the target accepted it in the preflight: for a token a check uses only when it can. */
  usable(token: TokenName): boolean {
    return !!this.profile.tokens?.[token] && !this.rejected.has(token);
  }

  get resources(): ProfileResources {
    return this.profile.resources ?? {};
  }

  get requirement(): Requirement {
    return lookupRequirement(this.spec.requirement);
  }

  async request(req: RequestOptions): Promise<Reply> {
    const method = (req.method ?? 'GET').toUpperCase();
    const endpoint = matchEndpoint(method, req.path.split('?')[0]!)?.endpoint;
    // A catalogue endpoint is a write as the catalogue says; any other path, by its method.
    if (endpoint ? endpoint.writes : WRITING.has(method)) this.declared(method, req.path, endpoint?.area);
    return this.client.send(this.anonymous && req.as === undefined ? { ...req, as: null } : req);
  }

  /**
   * A write is sent only where writes are allowed, by a check that declares its area (the scheduler
   * keeps declared writes apart from the polls they could disturb): otherwise it is a bug of the
   * suite, and the check fails before anything reaches the target.
   */
  private declared(method: string, path: string, area: Area | undefined): void {
    const what = `${this.spec.id} sent ${method} ${path.split('?')[0]}`;
    if (!this.writesAllowed) throw new Error(`${what} in a run without --allow-writes`);
    if (area && !areasWritten(this.spec).includes(area)) throw new Error(`${what}, a write of ${area} it does not declare (CheckSpec writes or mayWrite)`);
  }

  /** Waits out X-Poll-Interval before the conditional request `req`, so what the check reads around that request is read after the wait (see Client.untilPollable). */
  untilPollable(req: RequestOptions): Promise<void> {
    return this.client.untilPollable(this.anonymous && req.as === undefined ? { ...req, as: null } : req);
  }

  /** A wait of the check's own (letting the target settle): on the run's clock, so Ctrl-C ends it. */
  sleep(ms: number): Promise<void> {
    return this.client.sleep(ms);
  }

  fail(message: string, path?: string): void {
    this.failures.push({ message, ...(path ? { path } : {}) });
  }

  warn(message: string, path?: string): void {
    this.warnings.push({ message, ...(path ? { path } : {}) });
  }

  info(message: string, path?: string): void {
    this.notes.push({ message, ...(path ? { path } : {}) });
  }

  /** Records something the check could not judge, and goes on: the check never passes with one. */
  inconclusive(message: string): void {
    this.unjudged.push({ message });
  }

  skip(reason: SkipReason, message: string): never {
    throw new SkipSignal(reason, message);
  }

  /** Fails unless the status is one of `expected`; returns whether it was. */
  expectStatus(reply: Reply, expected: readonly number[], what = 'status'): boolean {
    if (expected.includes(reply.status)) return true;
    const message = typeof (reply.json as { message?: unknown })?.message === 'string' ? ` (message: ${(reply.json as { message: string }).message})` : '';
    this.fail(`${what}: expected ${expected.join(' or ')}, got ${reply.status}${message}`);
    return false;
  }

  /** The parsed JSON body, or a failure naming why there is none. */
  body<T = unknown>(reply: Reply): T | undefined {
    if (reply.jsonError) {
      this.fail(reply.jsonError);
      return undefined;
    }
    return reply.json as T;
  }
}
