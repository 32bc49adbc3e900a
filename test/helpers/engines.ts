/**
 * Running a workload in other JavaScript engines for the determinism tests: a driver module is
 * bundled into one script exposing `driver.run(n)` (a string of IEEE-754 bits), which V8, QuickJS
 * and Chromium each evaluate.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { getQuickJS } from 'quickjs-emscripten';

/** The driver at `url`, bundled as a classic script that defines `driver`. */
export async function bundleDriver(url: URL): Promise<string> {
  const bundle = await build({
    entryPoints: [fileURLToPath(url)],
    bundle: true,
    format: 'iife',
    globalName: 'driver',
    platform: 'neutral',
    target: 'es2020',
    write: false,
  });
  return bundle.outputFiles[0].text;
}

/** `driver.run(n)` of a bundled driver, in this process's V8. */
export function runInV8(code: string, n: number): string {
  return new Function(`${code}; return driver.run(${n});`)() as string;
}

/** `driver.run(n)` of a bundled driver, in QuickJS (WebAssembly; its Math library is not V8's). */
export async function runInQuickJS(code: string, n: number): Promise<string> {
  const vm = (await getQuickJS()).newContext();
  try {
    const result = vm.unwrapResult(vm.evalCode(`${code}; driver.run(${n});`));
    const text = vm.getString(result);
    result.dispose();
    return text;
  } finally {
    vm.dispose();
  }
}
