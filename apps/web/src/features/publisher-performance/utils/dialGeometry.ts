import { GAUGE } from './performance.ts';

/** Where the dial's parts are drawn, in pixels of its face (GAUGE.size square). */
export const CENTRE = GAUGE.size / 2;
export const FACE_RADIUS = GAUGE.size / 2 - 4;
export const TICK_OUTER = FACE_RADIUS - 6;
export const LABEL_RADIUS = FACE_RADIUS - 22;
