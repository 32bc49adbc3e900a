/**
 * A/B of two builds of tendon on one IK scenario of bench/ik.bench.mjs: both builds' adapters in one
 * process, timed in alternating rounds (the machine's drift hits both alike), medians reported.
 *
 *   node bench/ab.mjs <dir A> <dir B> [leg | aim | chain | ccd | limits | limits-ccd]
 *
 * chain and ccd: FabrikIk and CcdIk on bench/ik.bench.mjs's 10-bone chain; limits and limits-ccd:
 * the two on its limited arm.
 *
 * Each directory is a checkout with `npm run build` done (its `dist/` and `bench/` are loaded), e.g.
 * a `git worktree` of the commit before a change, beside this one.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const SCENARIOS = ['leg', 'aim', 'chain', 'ccd', 'limits', 'limits-ccd'];
const [, , aDir, bDir, scenario = 'leg'] = process.argv;
if (aDir === undefined || bDir === undefined || !SCENARIOS.includes(scenario)) {
  console.error(`usage: node bench/ab.mjs <dir A> <dir B> [${SCENARIOS.join(' | ')}]`);
  process.exit(2);
}
const load = async (dir) => {
  const url = (file) => pathToFileURL(path.resolve(dir, 'bench', file)).href;
  return { t: await import(url('ik-tendon.mjs')), s: await import(url('ik-setup.mjs')) };
};
const adapter = ({ t, s }) => {
  if (scenario === 'leg') return t.tendonLeg(s.legTargets(), { pole: true, mode: 'hinge' });
  if (scenario === 'aim') return t.tendonAim(s.headTargets(), { up: true });
  if (scenario === 'chain')
    return t.tendonChain(s.chainTargets(), { solver: 'FabrikIk', maxIterations: 100 });
  if (scenario === 'ccd') return t.tendonChain(s.chainTargets(), { solver: 'CcdIk', maxIterations: 100 });
  const solver = scenario === 'limits' ? 'FabrikIk' : 'CcdIk';
  return t.tendonChain(s.armTargets(), { solver, limited: true });
};
const adapters = [adapter(await load(aDir)), adapter(await load(bDir))];
const n = scenario === 'leg' || scenario === 'aim' ? 100000 : 2000;
for (const a of adapters) a.run(3 * n);
const times = [[], []];
for (let round = 0; round < 21; round++) {
  for (const i of round % 2 ? [1, 0] : [0, 1]) {
    const start = performance.now();
    adapters[i].run(n);
    times[i].push(((performance.now() - start) * 1e6) / n);
  }
}
const median = (x) => [...x].sort((p, q) => p - q)[x.length >> 1];
const [a, b] = times.map(median);
console.log(`${scenario}: A ${a.toFixed(1)} ns, B ${b.toFixed(1)} ns, B/A ${(b / a).toFixed(3)}`);
