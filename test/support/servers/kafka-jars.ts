/**
 * Apache Kafka's broker, from its jars on Maven Central: neither Debian nor npm ships a broker, and
 * there is no container engine here, so the tests and bench:events run the real thing on the Debian
 * JDK. `kafkaClasspath()` resolves the jars with Maven into a cache directory named by the version
 * (~/.cache/wirekit/kafka-VERSION) the first time, and reads the classpath from there afterwards, so
 * reruns (and CI's cached runs) fetch nothing. `.ci/run` calls it once before the tests.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The broker's version (Kafka 4.x runs in KRaft mode only: no ZooKeeper). */
export const kafkaVersion = '4.1.1';
/** The log4j 2 binding Kafka's own distribution ships, so the broker's log reaches its stdout. */
const log4jVersion = '2.24.3';

/** Where the jars are kept. @public .ci/run prints it, which knip does not read. */
export function kafkaCacheDir(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'wirekit', `kafka-${kafkaVersion}`);
}

const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>wirekit.test</groupId>
  <artifactId>kafka-broker</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>${kafkaVersion}</version></dependency>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka-storage</artifactId><version>${kafkaVersion}</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j-impl</artifactId><version>${log4jVersion}</version></dependency>
  </dependencies>
</project>
`;

/** True when the jars are already in the cache (nothing would be fetched). */
export function kafkaJarsCached(): boolean {
  return existsSync(join(kafkaCacheDir(), 'classpath.txt'));
}

let pending: Promise<string> | undefined;

/** The broker's Java classpath, fetching the jars first if they are not cached (needs `mvn`). */
export function kafkaClasspath(): Promise<string> {
  pending ??= resolveClasspath().catch((error: unknown) => {
    pending = undefined;
    throw error;
  });
  return pending;
}

async function resolveClasspath(): Promise<string> {
  const dir = kafkaCacheDir();
  const file = join(dir, 'classpath.txt');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'pom.xml'), pom);
  const partial = join(dir, 'classpath.partial');
  rmSync(partial, { force: true });
  await new Promise<void>((resolve, reject) => {
    execFile(
      'mvn',
      [
        '-q',
        '-B',
        `-Dmaven.repo.local=${join(dir, 'm2')}`,
        '-f',
        join(dir, 'pom.xml'),
        'dependency:build-classpath',
        `-Dmdep.outputFile=${partial}`,
      ],
      { timeout: 15 * 60_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `fetching Kafka ${kafkaVersion}'s jars with mvn failed: ${error.message}\n${stdout}${stderr}`,
            ),
          );
        else resolve();
      },
    );
  });
  // Written last and renamed into place, so an interrupted fetch leaves no classpath behind.
  renameSync(partial, file);
  return readFileSync(file, 'utf8').trim();
}
