// Child process of wrappers.bench.ts: runs the loopback fake OpenAI API (packages/test-kit/src/fake-llm.ts) so its CPU is not the benchmark's.
import { startFakeLlm } from '../packages/test-kit/src/fake-llm.js';

const fake = await startFakeLlm();
process.send?.(fake.openaiURL);
process.on('disconnect', () => void fake.close().then(() => process.exit(0)));
