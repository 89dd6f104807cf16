/**
 * Loading an optional peer package (ioredis, kafkajs, the NATS client) on first use, so that an
 * entry point loads without the packages it does not need; one that is missing fails with what to
 * install, the import's own error as the cause. The import stays at the caller (`() =>
 * import('ioredis')`), where bundlers and the type checker see its literal name.
 */
export async function importPeer<T>(load: () => Promise<T>, user: string, pkg: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new Error(`${user} needs the ${pkg} package (npm install ${pkg})`, { cause: error });
  }
}
