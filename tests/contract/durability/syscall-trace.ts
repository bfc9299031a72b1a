// Reading an `strace -f -y` log of the Node host, and the one question the durability test asks
// of it: was each acknowledged block's transaction written to the write-ahead log and synced to
// disk (fsync/fdatasync of the -wal file) before the first byte of the answer left for the socket?

/** strace's options for that log: every thread, file descriptors named, whole buffers shown. */
export const STRACE_ARGS = ['-f', '-qq', '--seccomp-bpf', '-e', 'signal=none', '-y', '-s', '65536', '-e', 'trace=pwrite64,write,writev,fsync,fdatasync,sendmsg,sendto'];

export interface TracedCall {
  /** Place in the log: a call's start, except a sync's, which counts where it returned. */
  position: number;
  name: string;
  /** What the descriptor is (strace -y): a file's path, or `socket:[…]`. */
  target: string;
  /** The rest of the line: the arguments as strace shows them (buffers escaped). */
  args: string;
}

const SYNCS = new Set(['fsync', 'fdatasync']);
const SOCKET_WRITES = new Set(['write', 'writev', 'sendmsg', 'sendto']);
const FILE_WRITES = new Set(['pwrite64', 'write', 'writev']);

const CALL = /^(\d+)\s+(\w+)\((\d+)<([^>]*)>(.*)$/;
const RESUMED = /^(\d+)\s+<\.\.\. (\w+) resumed>/;

/** The calls of a log written with STRACE_ARGS, in the order they happened. */
export function parseTrace(log: string): TracedCall[] {
  const calls: TracedCall[] = [];
  const unfinished = new Map<string, Omit<TracedCall, 'position'>>();
  log.split('\n').forEach((line, position) => {
    const resumed = RESUMED.exec(line);
    if (resumed) {
      const started = unfinished.get(`${resumed[1]} ${resumed[2]}`);
      unfinished.delete(`${resumed[1]} ${resumed[2]}`);
      if (started && SYNCS.has(started.name)) calls.push({ ...started, position });
      return;
    }
    const call = CALL.exec(line);
    if (!call) return;
    const [, pid, name, , target, args] = call;
    const entry = { name, target, args };
    if (args.endsWith('<unfinished ...>')) {
      unfinished.set(`${pid} ${name}`, entry);
      if (SYNCS.has(name)) return; // counted where it returns
    }
    calls.push({ ...entry, position });
  });
  return calls.sort((a, b) => a.position - b.position);
}

export interface Acknowledged {
  /** The extrinsic hash the answer carries. */
  extrinsic: string;
  /** The hash of the block it is in (asked afterwards); written in that block's transaction only. */
  block: string;
}

/**
 * What went wrong for each acknowledgement, or nothing: its answer (the first socket write that
 * names the extrinsic, back to the status line it belongs to) must come after a write to `wal`
 * naming its block, and after a sync of `wal` that follows every write to `wal` before the answer.
 */
export function unsyncedAcknowledgements(calls: TracedCall[], wal: string, acknowledged: Acknowledged[]): string[] {
  const problems: string[] = [];
  const walWrites = calls.filter((c) => FILE_WRITES.has(c.name) && c.target === wal);
  const walSyncs = calls.filter((c) => SYNCS.has(c.name) && c.target === wal);
  const answers = calls.filter((c) => SOCKET_WRITES.has(c.name) && c.target.startsWith('socket:'));
  for (const { extrinsic, block } of acknowledged) {
    const body = answers.find((c) => c.args.includes(extrinsic));
    const answer = body && answers.filter((c) => c.position <= body.position && c.args.includes('HTTP/1.1 ')).at(-1);
    if (!answer) {
      problems.push(`${extrinsic}: its answer is not in the trace`);
      continue;
    }
    const written = walWrites.find((c) => c.args.includes(block));
    if (!written) {
      problems.push(`${extrinsic}: block ${block} was never written to the log`);
      continue;
    }
    if (written.position > answer.position) {
      problems.push(`${extrinsic}: answered before block ${block} was written`);
      continue;
    }
    const lastWrite = walWrites.filter((c) => c.position < answer.position).at(-1)!;
    if (!walSyncs.some((c) => c.position > lastWrite.position && c.position < answer.position)) {
      problems.push(`${extrinsic}: answered while block ${block} was not yet synced to disk`);
    }
  }
  return problems;
}
