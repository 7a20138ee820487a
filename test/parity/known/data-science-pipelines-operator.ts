import type { KnownDefect } from '../known-defects';

/** Known differences from upstream's data-science-pipelines-operator install (see ../known-defects.ts). */
export const KNOWN_DATA_SCIENCE_PIPELINES_OPERATOR: readonly KnownDefect[] = [];
