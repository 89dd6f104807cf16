/**
 * The child's side of bench:events's producer and consumer processes (children.ts is the
 * orchestrator's): the spec arrives as the first argument, answers go out over IPC, a failure is
 * sent as an `error` message (the orchestrator fails whatever waits on this child with it), and
 * the process leaves by closing the channel. An orchestrator that goes away (crashed, killed)
 * ends the child, so that no producer keeps sending into a broker nobody measures.
 */
export interface ChildSide<Out extends { type: string }> {
  send(message: Out): void;
  /** Closes the channel: the process ends once its work is done. */
  leave(): void;
  /** Reports the error to the orchestrator, sets exit code 1, and leaves. */
  fail(error: unknown): void;
  /** Runs `main` on the spec the orchestrator passed; a rejection fails the child. */
  run<Spec>(main: (spec: Spec) => Promise<void>): void;
}

export function childSide<Out extends { type: string }>(): ChildSide<Out> {
  /** Set when this process closes the channel itself. */
  let leaving = false;
  const send = (message: Out | { type: 'error'; message: string }): void => {
    process.send?.(message);
  };
  const leave = (): void => {
    leaving = true;
    process.disconnect();
  };
  const fail = (error: unknown): void => {
    send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exitCode = 1;
    leave();
  };
  // The orchestrator gone, nothing will ask this process anything again.
  process.once('disconnect', () => {
    if (!leaving) process.exit(1);
  });
  return {
    send,
    leave,
    fail,
    run(main) {
      main(JSON.parse(process.argv[2] as string)).catch(fail);
    },
  };
}
