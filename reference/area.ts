/** How an area of the spec plugs into the reference: its state, its handlers and its faults. */
import type { Area } from '../spec/catalogue.js';
import type { Fault } from './fault.js';
import type { Handler } from './http.js';
import type { World } from './world.js';

export interface AreaInit {
  world: World;
  /** Server start time: corpora place their timestamps relative to it. */
  startedAt: number;
  now(): number;
}

export interface AreaModule<S> {
  area: Area;
  faults: readonly Fault[];
  createState(init: AreaInit): S;
  /** Keyed by catalogue endpoint id. */
  handlers: Record<string, Handler>;
}
