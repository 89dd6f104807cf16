/**
 * The registry's records in one local file, one JSON record per line (`--store file:PATH`): a
 * registry that survives restarts with nothing to run beside it. The file is the log, in the order
 * records were appended, readable with `jq` and repairable with an editor.
 *
 *   {"kind":"schema","subject":"orders-value","version":1,"id":1,"schemaType":"AVRO","schema":"…","references":[],"deleted":false}
 *   {"kind":"config","subject":null,"compatibility":"FULL"}
 *
 * Durability: an append is written at the end of what is known good and fsynced before it
 * resolves, so a registration the client saw succeed is on disk. A crash mid-write can leave only
 * the last line torn (no newline yet): load drops it and truncates it away, as that record was
 * never acknowledged. A line that is damaged anywhere else is not a crash's doing, and load fails
 * with StoreCorruptError naming the line instead of guessing. A write that fails (a full disk) is
 * cut back off, so the next append never lands behind half a record.
 *
 * One registry per file: the store does not lock it against a second server.
 */
import { constants, type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkedRecord, StoreCorruptError } from './record-json.js';
import type { RegistryRecord, RegistryStore } from './store.js';

const newline = 0x0a;

/** Flushes a directory, so that a file just created in it is still there after a crash. */
async function syncDirectory(path: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Some filesystems do not sync directories; the file's own fsync still holds its contents.
  } finally {
    await handle?.close();
  }
}

/** The records of the file's complete lines, the line each is on, and how many bytes those lines take. */
function parseLog(
  bytes: Buffer,
  path: string,
): { records: RegistryRecord[]; lines: number[]; goodLength: number } {
  const records: RegistryRecord[] = [];
  const lines: number[] = [];
  let start = 0;
  let line = 1;
  for (let end = bytes.indexOf(newline); end !== -1; end = bytes.indexOf(newline, start)) {
    const text = bytes.subarray(start, end).toString('utf8');
    if (text.trim() !== '') {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (cause) {
        throw new StoreCorruptError(`${path}:${line}`, 'the line is not JSON', { offset: start, cause });
      }
      records.push(checkedRecord(value, `${path}:${line}`, start));
      lines.push(line);
    }
    start = end + 1;
    line += 1;
  }
  return { records, lines, goodLength: start };
}

export function fileStore(path: string): RegistryStore {
  let handle: FileHandle | undefined;
  /** The length of the file's complete, acknowledged lines: where the next record goes. */
  let size = 0;
  /** Set when a failed write could not be cut back off: nothing more is written. */
  let broken: Error | undefined;
  let tail: Promise<unknown> = Promise.resolve();
  /** The line of each record load returned. */
  let lineOf: readonly number[] = [];

  const write = async (record: RegistryRecord): Promise<void> => {
    if (handle === undefined) throw new Error(`the file store ${path} is not loaded (or is closed)`);
    if (broken !== undefined) throw broken;
    const bytes = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
    try {
      let written = 0;
      while (written < bytes.length) {
        const result = await handle.write(bytes, written, bytes.length - written, size + written);
        written += result.bytesWritten;
      }
      await handle.sync();
      size += bytes.length;
    } catch (cause) {
      try {
        await handle.truncate(size);
      } catch {
        broken = new Error(`the file store ${path} failed a write and could not cut it off`, { cause });
      }
      throw cause;
    }
  };

  return {
    async load() {
      const opened = await open(path, constants.O_RDWR | constants.O_CREAT, 0o644);
      try {
        // A device or FIFO given as the path would be read forever (/dev/zero never ends).
        if (!(await opened.stat()).isFile()) throw new Error(`the file store ${path} is not a regular file`);
        const bytes = await opened.readFile();
        const { records, lines, goodLength } = parseLog(bytes, path);
        if (goodLength < bytes.length) {
          // A torn last line: the record a crash interrupted, never acknowledged.
          await opened.truncate(goodLength);
          await opened.sync();
        }
        if (bytes.length === 0) await syncDirectory(dirname(path));
        size = goodLength;
        lineOf = lines;
        handle = opened;
        return records;
      } catch (error) {
        await opened.close();
        throw error;
      }
    },

    locationOf(index) {
      return `${path}:${lineOf[index] ?? '?'}`;
    },

    append(record) {
      const run = tail.then(() => write(record));
      tail = run.catch(() => undefined);
      return run;
    },

    async close() {
      await tail;
      const closing = handle;
      handle = undefined;
      await closing?.close();
    },
  };
}
