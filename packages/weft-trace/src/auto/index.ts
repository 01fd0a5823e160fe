/**
 * The `weft-trace/instrument` entry: `instrument()` for apps that cannot use `node --import weft-trace/register`
 * (serverless handlers, apps started by a tool that owns the command line).
 * @module
 */
export { instrument, INSTRUMENTED_LIBRARIES, type InstrumentOptions } from './instrument.js';
