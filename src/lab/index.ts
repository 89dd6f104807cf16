/**
 * `wirekit-ts/lab`: the lab behind `wirekit bench`, as a library. Its datasets (deterministic from a
 * seed, each with its schema), the runner that times every format on them in fresh processes, the
 * table, Markdown and HTML reports and the recommendation per boundary, and the small timing
 * helpers the runner uses, for a team that measures its own boundaries in its own scripts (the
 * repository's benchmarks use it this way). See docs/cli.md.
 */

export type { CaseResult, ProcessMedians } from './case.js';
export { firstDifference } from './compare.js';
export {
  datasetFromFile,
  type FileDataset,
  type FileDatasetSpec,
  findWrappedArray,
} from './datasets/from-file.js';
export * from './datasets/index.js';
export * from './datasets/text.js';
export { Country, countries } from './datasets/users.js';
export { furyFor } from './peers/fury.js';
export { type OptionalPeer, optionalPeers, PeerUnavailableError } from './peers/optional.js';
export { type Random, seededRandom } from './random.js';
export {
  type Margin,
  type MeasuredBoundary,
  minimumItems,
  type Recommendation,
  type RecommendOptions,
  recommend,
} from './recommend.js';
export { labHtml } from './report/html.js';
export { type LineChart, type LineSeries, type LinesPage, linesHtml } from './report/lines.js';
export { labMarkdown } from './report/markdown.js';
export { type LabOptions, type LabRun, runLab } from './run.js';
export {
  type AgainstJson,
  median,
  percentile,
  summarize,
  type Timing,
  timeAgainstJson,
  timeMs,
} from './stats.js';
export { createSubject, type SubjectName, subjectNames } from './subjects.js';
export { labTable, renderTable } from './table.js';
export type { TablesMeasure } from './tables-path.js';
