// An esbuild plugin for Opalite's browser bundles (the sandbox worker, the package's browser
// entries): the libraries' start-up code runs without throwing.
//
// protobufjs (under @unique-nft/schemas) probes for Node's Buffer with
// `util.global.Buffer.prototype.utf8Write` inside a try/catch, which in a browser throws a
// TypeError while the worker's top-level code runs. A thrown error is not free there: Chromium
// with a debugger attached (as test runners attach to every worker) records its stack with source
// positions, and for top-level code that means parsing the whole 1 MiB worker again, about 0.45 s
// of a fresh sandbox's start. Reading a missing Buffer as an object without Node's `utf8Write`
// takes the same browser path (no Buffer) without the throw.
import { readFile } from 'node:fs/promises';

const PROTOBUF_UTIL = /[\\/]protobufjs[\\/]src[\\/]util[\\/]minimal\.js$/;
const BUFFER_PROBE = 'var Buffer = util.global.Buffer;';

export const noStartupThrow = {
  name: 'opalite-no-startup-throw',
  setup(build) {
    build.onLoad({ filter: PROTOBUF_UTIL }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      // A protobufjs that probes differently must be looked at again, not bundled unchecked.
      if (!source.includes(BUFFER_PROBE)) throw new Error(`${args.path} no longer probes Buffer as "${BUFFER_PROBE}"`);
      return { contents: source.replace(BUFFER_PROBE, 'var Buffer = util.global.Buffer || { prototype: {} };'), loader: 'js' };
    });
  }
};
