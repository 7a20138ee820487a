import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's jupyter-web-app install (see ../known-defects.ts). */
export const KNOWN_JUPYTER_WEB_APP: readonly KnownDefect[] = [];
