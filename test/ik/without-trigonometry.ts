/**
 * Runs code with Math's transcendental functions replaced by throwing stand-ins: the solvers may use
 * only + − × ÷ and √ (docs/methods.md §5), so a solve that reaches for one of them fails the test.
 */

/** The functions a solve may not call. */
export const BANNED = [
  'sin',
  'cos',
  'tan',
  'asin',
  'acos',
  'atan',
  'atan2',
  'exp',
  'log',
  'pow',
  'hypot',
] as const;

/** Runs `body` with the banned Math functions throwing, restoring them afterwards. */
export function withoutTrigonometry(body: () => void): void {
  const math = Math as unknown as Record<string, unknown>;
  const saved = BANNED.map((name) => math[name]);
  for (const name of BANNED) {
    math[name] = () => {
      throw new Error(`Math.${name} called in a solver path`);
    };
  }
  try {
    body();
  } finally {
    BANNED.forEach((name, i) => {
      math[name] = saved[i];
    });
  }
}
