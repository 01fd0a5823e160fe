/**
 * Options of op(): naming, input capture and post-processing of a traced function.
 * @module
 */

/** Options of {@link op}. All optional. */
export interface OpOptions<A extends unknown[] = unknown[], R = unknown> {
  /** Op name recorded as `op_name`. @defaultValue the function's `name`, else `"anonymous"` */
  name?: string;
  /** `display_name` of each call: a string, or a function of the call's arguments. @defaultValue none */
  callDisplayName?: string | ((...args: A) => string);
  /** Names for the inputs by position. @defaultValue read from the function's source, else `arg0`, `arg1`, ... */
  parameterNames?: string[];
  /** Rewrites the recorded inputs (not the arguments the function gets). */
  postprocessInputs?: (inputs: Record<string, unknown>) => Record<string, unknown>;
  /** Rewrites the recorded output (not the value returned to the caller). */
  postprocessOutput?: (output: Awaited<R>) => unknown;
  /** Attributes recorded on every call of this op. @defaultValue `{}` */
  attributes?: Record<string, unknown>;
}
