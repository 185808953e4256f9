import type { CassettePlayer } from './cassette-player.js';
import type { CassetteRecorder } from './cassette-recorder.js';

/** A cassette in use by a run: being recorded, or played back. */
export type Cassette = CassetteRecorder | CassettePlayer;
