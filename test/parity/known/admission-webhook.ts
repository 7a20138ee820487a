import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's admission-webhook install (see ../known-defects.ts). */
export const KNOWN_ADMISSION_WEBHOOK: readonly KnownDefect[] = [];
