import { styleText } from 'node:util';

/** A style `node:util` `styleText` knows (`green`, `red`, `dim`, `bold`, ...). */
export type Style = Parameters<typeof styleText>[0];

/** Paints text in a style, or returns it as it is when colour is off. */
export type Paint = (style: Style, text: string) => string;

/**
 * Whether to colour what goes to `stream`: `FORCE_COLOR` (anything but `0`
 * or `false`) turns it on, as it does for node itself; otherwise `NO_COLOR`
 * (set and not empty, see no-color.org) turns it off; otherwise only a
 * terminal that is not `TERM=dumb` gets colour (not a pipe, not a file).
 */
export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** A {@link Paint} that colours when `enabled`. */
export function painter(enabled: boolean): Paint {
  // The decision is made (colourEnabled, for the stream the text goes to): styleText must not make it again for stdout.
  return enabled ? (style, text) => styleText(style, text, { validateStream: false }) : (_style, text) => text;
}
