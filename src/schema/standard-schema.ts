/**
 * Standard Schema v1 (standardschema.dev): the interface zod, valibot and ArkType share, so that
 * form libraries, tRPC, Hono validators and the like accept any of them. `standardSchema(User)`
 * lets those tools validate with a wirekit schema. The interface is declared here, as the spec
 * asks libraries to do, rather than adding a runtime dependency. As zod's defaults do, a field left
 * out that has a default is filled in (`withDefaults`) before the value is validated and handed on,
 * so the input type is `InferInput` and the output `Infer`.
 */
import { withDefaults } from './defaults.js';
import type { Infer, InferInput, Schema } from './types.js';
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
): StandardSchemaV1<InferInput<S>, Infer<S>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'wirekit',
      validate(given) {
        const value = withDefaults(schema, given as InferInput<S>);
        const issues = validate(schema, value, options);
        if (issues.length === 0) return { value };
        return { issues: issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      },
    },
  };
}
