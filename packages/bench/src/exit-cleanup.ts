/** What must happen however the benchmark ends: stop a database server, kill child processes. Synchronous. */
type Cleanup = () => void;

const cleanups = new Set<Cleanup>();
let installed = false;

function runAll(): void {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    try {
      cleanup();
    } catch (error) {
      process.stderr.write(`cleanup failed: ${(error as Error).message}\n`);
    }
  }
}

/**
 * Registers `cleanup` to run when the process exits (normally, by
 * `process.exit`, on an uncaught error) or is interrupted (SIGINT, SIGTERM,
 * SIGHUP: then it exits with 128 + the signal's number after the cleanups).
 * PostgreSQL started by `pg_ctl` is a daemon and worker processes are
 * children that outlive a killed parent: without this an interrupted
 * benchmark would leave them running. Returns how to unregister it (call it
 * once the cleanup has been done in the ordinary way).
 */
export function onExitCleanup(cleanup: Cleanup): () => void {
  if (!installed) {
    installed = true;
    process.on('exit', runAll);
    for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]] as const) {
      process.on(signal, () => {
        process.stderr.write(`\n${signal}: stopping what the benchmark started...\n`);
        runAll();
        process.exit(128 + number);
      });
    }
  }
  cleanups.add(cleanup);
  return () => {
    cleanups.delete(cleanup);
  };
}
