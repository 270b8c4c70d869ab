/**
 * The V8 flags every Veil server process starts with: `npm start`, the container image,
 * `npm run cluster` and the benchmarks. They bound the JS heap near what is live instead of
 * letting garbage pile up between full collections (docs/decisions.md, "Runtime"):
 * - `--max-semi-space-size=8`: the young generation's two halves at 8 MB each, not up to 16;
 * - `--heap-growing-percent=50`: the old generation grows by half its live size before the next
 *   full collection, where V8 would otherwise let it grow up to four times.
 * V8 sizes the young generation when the process starts, so they belong on the command line;
 * `deploy/checks` checks that each launcher names them.
 */
export const veilNodeFlags: readonly string[] = ['--max-semi-space-size=8', '--heap-growing-percent=50'];
