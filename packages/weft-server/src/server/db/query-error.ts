/**
 * The error a query (stream query, table sort) raises for an unknown field or an unsupported form (the app answers 422).
 * @module
 */

/** A query that names an unknown field or uses an unsupported form; the app answers 422 with `loc`. */
export class QueryError extends Error {
  override name = 'QueryError';
  /**
   * @param loc - where in the request body (without the leading `"body"`), e.g. `["sort_by", "0", "field"]`.
   * @param message - what was expected and what was received.
   * @param type - the `type` of the validation error item.
   */
  constructor(
    readonly loc: string[],
    message: string,
    readonly type = 'value_error',
  ) {
    super(message);
  }
}
