// counting-worker.ts run in a worker_threads Worker through tsx (as ts-worker.mjs runs tendon's).
import { register } from 'tsx/esm/api';

register();
await import('./counting-worker.ts');
