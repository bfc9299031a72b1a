// Build the app of an earlier release and keep it as a test fixture (tests/e2e/upgrade.test.ts
// serves it, writes a ledger with it, then opens that profile with the current build).
//
//   node scripts/make-release-fixture.mjs <commit>
//
// The commit's tree is taken with `git archive` (the working tree is not touched), today's
// node_modules are linked into it (no install), and its `vite build` output is packed into
// tests/e2e/fixtures/releases/<short>.tar.gz beside <short>.json (commit, date, schema version).
// So the fixture is the old SOURCE built with TODAY's node_modules (linked), not the bytes that
// release shipped: its Svelte, Dexie and other libraries may be newer than the ones it had. That is
// acceptable because the test is about the stored data format (the IndexedDB schema and rows the
// release's own code writes, and its exports), which is the release's source, not its libraries'.
// The built app is the fixture rather than a browser profile: a profile made by one Chromium
// may not open in an older one, so the test makes the profile with whatever Chromium runs it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT_DIR = join(ROOT, 'tests', 'e2e', 'fixtures', 'releases');
const SCHEMA_FILE = 'src/lib/storage/schema.ts';

/** Run a command; its output is shown only when it fails. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout ?? ''}\n${result.stderr ?? ''}`);
  }
  return result.stdout;
}

/** The highest `version: N` declared (outside comments) in the release's schema.ts. */
function schemaVersionOf(source) {
  const versions = source
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .flatMap((line) => [...line.matchAll(/\bversion:\s*(\d+)/g)].map((m) => Number(m[1])));
  if (versions.length === 0) throw new Error(`${SCHEMA_FILE} declares no schema version`);
  return Math.max(...versions);
}

function main() {
  const rev = process.argv[2];
  if (!rev) {
    console.error('usage: node scripts/make-release-fixture.mjs <commit>');
    process.exit(2);
  }
  const commit = run('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: ROOT }).trim();
  const short = commit.slice(0, 7);
  const date = run('git', ['show', '-s', '--format=%cI', commit], { cwd: ROOT }).trim();
  const subject = run('git', ['show', '-s', '--format=%s', commit], { cwd: ROOT }).trim();
  const schemaVersion = schemaVersionOf(run('git', ['show', `${commit}:${SCHEMA_FILE}`], { cwd: ROOT }));

  const work = mkdtempSync(join(tmpdir(), `opalite-release-${short}-`));
  try {
    const tree = join(work, 'tree');
    mkdirSync(tree);
    const archive = join(work, 'tree.tar');
    run('git', ['archive', '--format=tar', '-o', archive, commit], { cwd: ROOT });
    run('tar', ['-xf', archive, '-C', tree]);
    symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');

    const outside = join(work, 'build');
    const env = { ...process.env, NODE_ENV: 'production', OPALITE_BUILD_DIR: outside };
    delete env.OPALITE_KIT_DIR;
    const started = Date.now();
    run(process.execPath, [join(tree, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'], {
      cwd: tree,
      // The release's svelte.config.js reads OPALITE_BUILD_DIR (every release since the e2e
      // suite has); its .svelte-kit stays the tree's own, which its tsconfig.json extends.
      env
    });
    // A release older than OPALITE_BUILD_DIR built into its own build/.
    const build = existsSync(join(outside, 'service-worker.js')) ? outside : join(tree, 'build');
    statSync(join(build, 'service-worker.js'));
    console.log(`built ${short} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    mkdirSync(OUT_DIR, { recursive: true });
    const packed = join(OUT_DIR, `${short}.tar.gz`);
    // Sorted names, fixed owner and time: the same build packs to the same bytes.
    run('sh', ['-c', 'tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - -C "$1" . | gzip -9n > "$2"', 'pack', build, packed]);
    const info = { commit, short, date, subject, schemaVersion, archive: `${short}.tar.gz` };
    writeFileSync(join(OUT_DIR, `${short}.json`), `${JSON.stringify(info, null, 2)}\n`);
    console.log(`${packed}: ${(statSync(packed).size / 1024).toFixed(0)} KiB, schema version ${schemaVersion}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
