export * from './distributed-workloads';
