// @typescript-eslint/parser, given the TypeScript program scripts/check-types-and-lint.mjs
// built and type-checked (setPrograms), so that the type-aware rules read that program's types
// instead of building the same program again (parserOptions.projectService / project).
//
// A module rather than `parserOptions.programs` in ESLint's configuration: ESLint's cache keys
// its results by a serialization of the configuration, which a program (cyclic, huge) cannot be.
const parser = require('@typescript-eslint/parser');

let programs;

/** The programs every file linted from now on is looked up in (a file must be in one). */
function setPrograms(list) {
  programs = list;
}

function parseForESLint(code, options) {
  if (!programs) throw new Error('scripts/eslint-program-parser.cjs: no TypeScript program given (setPrograms); it is used by scripts/check-types-and-lint.mjs only');
  // A provided program replaces the project service and project lookup (which would build it again).
  return parser.parseForESLint(code, { ...options, projectService: undefined, project: undefined, programs });
}

module.exports = { ...parser, parseForESLint, setPrograms, meta: { ...parser.meta, name: 'eslint-program-parser' } };
