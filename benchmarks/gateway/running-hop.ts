/** What each hop's starter gives the gateway process: the port its REST routes listen on, and a way to stop. */
export interface RunningHop {
  readonly port: number;
  close(): Promise<void>;
}
