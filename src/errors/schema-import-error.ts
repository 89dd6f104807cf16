import { type Path, type WireFormat, WirekitError } from './wirekit-error.js';

/** Where in a schema file a problem is, as far as the reader knows it. Lines and columns count from 1. */
export interface SchemaImportPlace {
  /** The file as it was named (a path, or `standard input`); absent for text given without a name. */
  readonly file?: string | undefined;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** Keys and indexes into the schema's own JSON (Avro, JSON Schema), as `error.path`. */
  readonly path?: Path | undefined;
  /** The format whose schema language it is, where there is one (`avro`, `protobuf`). */
  readonly format?: WireFormat | undefined;
  readonly cause?: unknown;
}

/**
 * A schema file in another language (.proto, .avsc, JSON Schema) that wirekit cannot import: it
 * does not parse, it is past a limit, or it uses a feature wirekit does not read. Code
 * `WK_SCHEMA_IMPORT`. Every importer throws this one class, so a caller (the CLI, an editor) finds
 * the place in the same fields whatever the language; the message starts with the place the way
 * compilers print it (`order.proto:12:5: …`), so it can be clicked in a terminal.
 */
export class SchemaImportError extends WirekitError {
  override readonly name = 'SchemaImportError';
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(message: string, place: SchemaImportPlace = {}) {
    super('WK_SCHEMA_IMPORT', `${placeText(place)}${message}`, {
      cause: place.cause,
      ...(place.path === undefined ? {} : { path: place.path }),
      format: place.format,
    });
    this.file = place.file;
    this.line = place.line;
    this.column = place.column;
    this.reason = message;
  }

  /** The message without the place in front, for a caller that names the file itself. */
  readonly reason: string;

  /**
   * The same refusal, placed in `file`: importers read text and know no file name; the caller that
   * opened the file (the CLI) adds it, keeping line, column and path.
   */
  inFile(file: string): SchemaImportError {
    return this.file === undefined ? this.movedTo(file) : this;
  }

  /**
   * The same refusal, placed in `file` instead: an importer names a file by the path an import
   * gives it, which a reader of files on disk replaces with the path it read.
   */
  movedTo(file: string): SchemaImportError {
    return new SchemaImportError(this.reason, {
      file,
      line: this.line,
      column: this.column,
      path: this.path,
      format: this.format,
      cause: this.cause,
    });
  }
}

function placeText({ file, line, column }: SchemaImportPlace): string {
  if (file === undefined && line === undefined) return '';
  const at = line === undefined ? '' : column === undefined ? `:${line}` : `:${line}:${column}`;
  return `${file ?? '(text)'}${at}: `;
}
