export { type ErrorCode, errorCodes } from './codes.js';
export { describeValue } from './describe-value.js';
export { SchemaImportError, type SchemaImportPlace } from './schema-import-error.js';
export { type IssueCode, issueCodes, ValidationError, type ValidationIssue } from './validation-error.js';
export { WirekitBug } from './wirekit-bug.js';
export {
  atPath,
  errorLine,
  formatPath,
  isWirekitError,
  type Path,
  prependPath,
  type WireFormat,
  WirekitError,
  type WirekitErrorOptions,
  wireFormats,
} from './wirekit-error.js';
