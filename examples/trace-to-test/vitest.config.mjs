// The trace-to-test example's vitest config (docs/evaluations.md). In this repository `weft-trace` resolves to
// its own built dist/ (outside node_modules), so it is marked external: Node loads it as an installed package.
export default { test: { name: 'trace-to-test-example', include: ['*.eval.test.ts'], server: { deps: { external: [/\/dist\//] } } } };
