// The entries whose work needs an optional peer, from the installed package in plain Node with no
// optional peer installed: whether each loads, and the error of the first call that needs its peer.
const cases = [
  ['duckdbSource', 'wirekit-ts/tables/duckdb', (entry) => entry.duckdbSource()],
  ['duckdbParams', 'wirekit-ts/tables/duckdb', (entry) => entry.duckdbParams([1])],
  [
    'postgresSource',
    'wirekit-ts/tables/postgres',
    (entry) => entry.postgresSource({ connectionString: 'postgres://nobody@127.0.0.1:1/none' }),
  ],
  ['prometheusCacheEvents', 'wirekit-ts/cache/prometheus', (entry) => entry.prometheusCacheEvents()],
  // Creating the store fails, synchronously (nothing is awaited here), not its first operation.
  ['redisStore', 'wirekit-ts/cache', (entry) => void entry.redisStore({ url: 'redis://127.0.0.1:1' })],
  [
    'tieredStore',
    'wirekit-ts/cache',
    (entry) =>
      void entry.tieredStore({
        near: entry.memoryStore(),
        far: entry.memoryStore(),
        invalidation: { url: 'redis://127.0.0.1:1' },
      }),
  ],
  // Fastify is an optional peer too, so the plugin is called as Fastify calls it, with a stand-in
  // app: the peer is loaded before the app is touched.
  ['wirekitSockets', 'wirekit-ts/ws', (entry) => entry.wirekitSockets({}, {})],
];

const results = {};
for (const [name, specifier, call] of cases) {
  let entry;
  try {
    entry = await import(specifier);
  } catch (error) {
    results[name] = { loaded: false, error: String(error) };
    continue;
  }
  try {
    await call(entry);
    results[name] = { loaded: true, error: 'none: the call succeeded' };
  } catch (error) {
    results[name] = { loaded: true, code: error.code, error: error.message, cause: error.cause?.code };
  }
}
console.log(JSON.stringify(results));
