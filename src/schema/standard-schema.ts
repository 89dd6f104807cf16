/**
 * Standard Schema v1 (standardschema.dev): the interface zod, valibot and ArkType share, so that
 * form libraries, tRPC, Hono validators and the like accept any of them. `standardSchema(User)`
 * lets those tools validate with a wirekit schema. The interface is declared here, as the spec
 * asks libraries to do, rather than adding a runtime dependency.
 */
import type { Infer, Schema } from './types.js';
import { type ValidateOptions, validate } from './validate.js';

export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: readonly {
        readonly message: string;
        readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
      }[];
    };

export function standardSchema<S extends Schema>(
  schema: S,
  options?: ValidateOptions,
): StandardSchemaV1<Infer<S>, Infer<S>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'wirekit',
      validate(value) {
        const issues = validate(schema, value, options);
        if (issues.length === 0) return { value: value as Infer<S> };
        return { issues: issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      },
    },
  };
}
