#!/usr/bin/env node
// The `opalite` command of the published package: `serve` runs the compiled Node host
// (dist/server/main.js, as `npm run serve` does, with no sources or dev tools), `init` copies the
// sandbox worker into another app's static folder. Plain JavaScript: it is shipped as written.
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_MAIN = join(PACKAGE_ROOT, 'dist', 'server', 'main.js');
const SANDBOX_WORKER = join(PACKAGE_ROOT, 'dist', 'pkg', 'sandbox-worker.js');
/** The name `startSandbox()` of opalite/browser registers by default. */
const WORKER_FILE_NAME = 'opalite-sandbox-worker.js';

const USAGE = `Usage: opalite <command> [options]

Commands:
  serve [options]       the Unique Network REST API v1 at http://127.0.0.1:<port>/sandbox/v1
                        on a local ledger (opalite serve --help lists every option:
                        --port --host --data --rules --blocks --pool-size
                        --pool-per-account --history --cors --allow-host
                        --max-upload --verify-threads --fork --fork-block
                        --impersonate --no-impersonate)
  init <publicDir>      copy the sandbox service worker into a web app's static folder
                        (${WORKER_FILE_NAME}), for startSandbox() of 'opalite/browser'

Options:
  -h, --help            this text
  -v, --version         the package's version`;

function version() {
  return JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version;
}

/** A mistake in how the command was called: usage on stderr, exit code 2. */
function usageError(message) {
  console.error(`opalite: ${message}\n\n${USAGE}`);
  process.exit(2);
}

/** Something the command could not do: one line on stderr, exit code 1. */
function failure(message) {
  console.error(`opalite: ${message}`);
  process.exit(1);
}

async function serve(args) {
  if (!existsSync(SERVER_MAIN)) failure(`the Node host is missing from this installation (${SERVER_MAIN}); reinstall the opalite package`);
  // main.js reads its options from process.argv, as `node dist/server/main.js <options>` gives them.
  process.argv = [process.argv[0], SERVER_MAIN, ...args];
  process.env.OPALITE_COMMAND = 'opalite serve';
  await import(pathToFileURL(SERVER_MAIN).href);
}

function init(args) {
  const [target, ...extra] = args;
  if (target === '-h' || target === '--help') {
    console.log(`Usage: opalite init <publicDir>\n  Copies ${WORKER_FILE_NAME} into <publicDir> (created if missing), the folder your app serves at its root (public/ for Vite).`);
    return;
  }
  if (target === undefined || target.startsWith('-')) usageError('init needs the folder your app serves at its root, e.g. `opalite init public`');
  if (extra.length > 0) usageError(`init takes one folder, not also ${extra.map((a) => `"${a}"`).join(' ')}`);
  if (!existsSync(SANDBOX_WORKER)) failure(`the sandbox worker is missing from this installation (${SANDBOX_WORKER}); reinstall the opalite package`);

  const dir = resolve(target);
  const existing = statSync(dir, { throwIfNoEntry: false });
  if (existing && !existing.isDirectory()) failure(`${target} is a file, not a folder: give the folder your app serves at its root`);
  const outFile = join(dir, WORKER_FILE_NAME);
  try {
    mkdirSync(dir, { recursive: true });
    copyFileSync(SANDBOX_WORKER, outFile);
  } catch (error) {
    failure(`could not write ${outFile}: ${error.message}`);
  }
  const shown = relative(process.cwd(), outFile) || outFile;
  console.log(`Wrote ${shown} (${Math.round(statSync(outFile).size / 1024)} KiB, opalite ${version()}).`);
  console.log(`Next: serve ${relative(process.cwd(), dir) || '.'} at your app's root and start the sandbox in the page:`);
  console.log(`  import { startSandbox } from 'opalite/browser';`);
  console.log(`Run \`opalite init\` again after upgrading opalite: startSandbox() refuses a worker of another version.`);
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case 'serve':
    await serve(rest);
    break;
  case 'init':
    init(rest);
    break;
  case '-h':
  case '--help':
  case 'help':
    console.log(USAGE);
    break;
  case '-v':
  case '--version':
    console.log(version());
    break;
  case undefined:
    usageError('which command? (serve or init)');
    break;
  default:
    usageError(`unknown command "${command}"`);
}
