export { type ErrorCode, errorCodes } from './codes.js';
export { describeValue } from './describe-value.js';
export { type IssueCode, issueCodes, ValidationError, type ValidationIssue } from './validation-error.js';
export {
  atPath,
  formatPath,
  isWirekitError,
  type Path,
  prependPath,
  WirekitError,
  type WirekitErrorOptions,
} from './wirekit-error.js';
