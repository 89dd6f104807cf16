/**
 * The one registry of wirekit error codes. A code is a stable contract: callers branch on it, so a
 * code is never renamed or reused once released. `docs/errors.md` documents every code listed here,
 * and `test/errors/registry.test.ts` fails when the two drift apart.
 */
export const errorCodes = {
  WK_SCHEMA_INVALID: 'A schema builder was given arguments that cannot form a valid schema.',
  WK_SCHEMA_FIELD_ID: 'Two fields of one object share a field number, or a number is out of range.',
  WK_SCHEMA_NAME_CONFLICT: 'Two different named types (object, enum, union) in one schema share a name.',
  WK_SCHEMA_UNRESOLVED_REF: 'A reference names a type that the schema does not define.',
  WK_SCHEMA_JSON_INVALID: "A schema's JSON form is malformed or names an unknown kind.",
  WK_EXPORT_UNSUPPORTED: 'The target format cannot express a kind or name used by the schema.',
  WK_VALIDATION_FAILED: 'A value does not match its schema.',
  WK_JSON_VALUE_INVALID: "A JSON value does not follow the schema's JSON form of values.",
  WK_INFER_NO_SAMPLES: 'Schema inference was given no samples to infer from.',
  WK_CLI_USAGE: 'A command-line call is missing an argument or has an unknown flag.',
  WK_CLI_INPUT: 'A command-line input file cannot be read or parsed.',
} as const;

export type ErrorCode = keyof typeof errorCodes;
