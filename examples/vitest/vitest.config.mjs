// The example's vitest config (docs/evaluations.md). In this repository `weft-trace` resolves to its own built dist/
// (outside node_modules), so it is marked external: Node loads it as it loads an installed package, untransformed.
export default { test: { name: 'example', include: ['*.eval.test.ts'], server: { deps: { external: [/\/dist\//] } } } };
