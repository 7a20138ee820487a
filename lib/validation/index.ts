export * from './issues';
export * from './names';
export * from './builtin';
export * from './rbac';
export * from './custom-resource';
export { compileCel } from './cel';
export type { CompiledRule } from './cel';
