/**
 * A throwaway Apache Kafka broker (4.x, KRaft combined mode: one JVM is broker and controller) on free
 * ports of 127.0.0.1, for the event tests and bench:events: its own temporary log directory, a small
 * heap, formatted and started from the jars kafkaClasspath() caches, stopped and removed by `stop()`.
 *
 * `kill()` then `start()` restarts it on the same ports with its data kept, which is how the tests
 * take the broker away from running producers and consumers and give it back.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from './free-port.js';
import { kafkaClasspath } from './kafka-jars.js';
import { type LocalServer, startLocalServer } from './server-process.js';

export interface KafkaBroker extends LocalServer {
  /** host:port, as kafkajs's `brokers` and Kafka's `bootstrap.servers` take it. */
  readonly bootstrap: string;
}

export interface KafkaBrokerOptions {
  /** Partitions of an auto-created topic (default 1). */
  readonly partitions?: number;
  /** JVM flags (default a 512 MiB heap with the serial collector: small, and enough for tests). */
  readonly jvmArgs?: readonly string[];
  /** Extra server.properties entries. */
  readonly properties?: Readonly<Record<string, string>>;
}

const readyLine = /Kafka Server started/;
const defaultJvmArgs = ['-Xms256m', '-Xmx512m', '-XX:+UseSerialGC'];

// Only the broker's start line and its warnings reach stdout: enough to wait for it and to see why
// it failed, without the megabytes an INFO log writes.
const log4j = `status = error
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.out.ref = out
logger.server.name = kafka.server.KafkaRaftServer
logger.server.level = INFO
`;

export async function startKafka(options: KafkaBrokerOptions = {}): Promise<KafkaBroker> {
  const classpath = await kafkaClasspath();
  const dir = mkdtempSync(join(tmpdir(), 'wirekit-kafka-'));
  const [port, controllerPort] = await freePorts(2);
  const properties: Record<string, string> = {
    'process.roles': 'broker,controller',
    'node.id': '1',
    'controller.quorum.voters': `1@127.0.0.1:${controllerPort}`,
    listeners: `PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names': 'CONTROLLER',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': join(dir, 'data'),
    'num.partitions': String(options.partitions ?? 1),
    // One broker: every internal topic with one replica, and one partition for consumer offsets
    // (the default 50 makes the first consumer group wait for all of them to load).
    'offsets.topic.replication.factor': '1',
    'offsets.topic.num.partitions': '1',
    'transaction.state.log.replication.factor': '1',
    'transaction.state.log.min.isr': '1',
    'share.coordinator.state.topic.replication.factor': '1',
    'share.coordinator.state.topic.min.isr': '1',
    'group.initial.rebalance.delay.ms': '0',
    'auto.create.topics.enable': 'true',
    // A restarted broker waits for its previous session to expire before it is unfenced: short
    // sessions make a restart take seconds, not the default 9 s more.
    'broker.session.timeout.ms': '2000',
    'broker.heartbeat.interval.ms': '500',
    ...options.properties,
  };
  const config = join(dir, 'server.properties');
  writeFileSync(
    config,
    Object.entries(properties)
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
  );
  writeFileSync(join(dir, 'log4j2.properties'), log4j);
  const java = ['-cp', classpath, `-Dlog4j2.configurationFile=${join(dir, 'log4j2.properties')}`];
  try {
    // A cluster id is 16 random bytes in URL-safe base64, as `kafka-storage random-uuid` prints;
    // one that starts with '-' would be read as an option, so draw again.
    let clusterId = randomBytes(16).toString('base64url');
    while (clusterId.startsWith('-')) clusterId = randomBytes(16).toString('base64url');
    await run('java', [...java, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', config]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const broker = await startLocalServer({
    command: 'java',
    args: [...(options.jvmArgs ?? defaultJvmArgs), ...java, 'kafka.Kafka', config],
    port,
    dir,
    ready: readyLine,
    name: 'Kafka',
    timeoutMs: 90_000,
  });
  return Object.assign(broker, { bootstrap: `127.0.0.1:${port}` });
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: 120_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.at(-1)}: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}
