/**
 * A real Kafka broker for the event tests: started by ../../benchmarks/kafka-server.ts (as bench:events
 * starts it) from the jars .ci/run caches. Like the other external tools (tools.ts), a machine
 * without Java, or without the jars and Maven to fetch them, skips loudly, and CI (CI=true) fails.
 */
import { kafkaJarsCached } from './servers/kafka-jars.js';
import { hasCommand } from './tools.js';

export { type KafkaBroker, startKafka } from './servers/kafka-server.js';

/** True when a broker can start here: Java, and the jars cached or Maven to fetch them. */
export function hasKafka(): boolean {
  return hasCommand('java', ['-version']) && (kafkaJarsCached() || hasCommand('mvn', ['--version']));
}
