export { type ErrorCode, errorCodes } from './codes.js';
export {
  formatPath,
  isWirekitError,
  type Path,
  WirekitError,
  type WirekitErrorOptions,
} from './wirekit-error.js';
