export * from './types';
export * from './dsl';
export * from './core';
export * from './common';
