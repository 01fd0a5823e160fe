/**
 * Which text reads as a number in call queries (`$convert` to int / double, mixed-type sorts), on both stores.
 * @module
 */

/**
 * Decimal digits with an optional sign, fraction and exponent, spaces around allowed. Written so JavaScript and
 * PostgreSQL regular expressions read it alike (ASCII digits and whitespace only). Any other text is no number:
 * `$convert` gives null for it (Weave's `toFloat64OrNull`), never SQLite's 0.
 */
export const NUMERIC_TEXT_PATTERN = String.raw`^[ \t\n\v\f\r]*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\v\f\r]*$`;

/** {@link NUMERIC_TEXT_PATTERN} as a JavaScript RegExp. */
export const NUMERIC_TEXT: RegExp = new RegExp(NUMERIC_TEXT_PATTERN);
