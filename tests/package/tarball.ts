// The published package as another project gets it: `npm pack` (which runs prepack, the package
// build) once, then the tarball unpacked into a project's node_modules/opalite. Its dependencies
// are this repository's installed ones, linked in: no network and no native compile.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where global-setup.ts left the tarball it packed for every file of the run. */
export const TARBALL_ENV = 'OPALITE_PACKED_TARBALL';

let packed: Promise<string> | undefined;

/** `npm pack` of this repository into a fresh temporary folder; the tarball's path. */
export async function packRepository(): Promise<string> {
  const destination = mkdtempSync(join(tmpdir(), 'opalite-pack-'));
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: REPO_ROOT, maxBuffer: 16 * 1024 * 1024 });
  // prepack's build logs precede npm's JSON report on stdout.
  const report = JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1)) as { filename: string }[];
  return join(destination, report[0].filename);
}

/** The tarball of this run: the one global-setup.ts packed, else packed here once per process. */
export function packedTarball(): Promise<string> {
  const fromSetup = process.env[TARBALL_ENV];
  if (fromSetup && existsSync(fromSetup)) return Promise.resolve(fromSetup);
  packed ??= packRepository();
  return packed;
}

/**
 * Install the packed package into the project at `dir`: the tarball unpacked at
 * `dir/node_modules/opalite`, its bins linked and made executable in `dir/node_modules/.bin` (as
 * npm does), and every package of this repository's node_modules linked beside it.
 */
export async function installPacked(dir: string): Promise<void> {
  await install(dir, repositoryPackages());
}

/**
 * installPacked, but with only what `npm install opalite` would bring: the package's dependencies
 * and theirs, none of this repository's devDependencies.
 */
export async function installPackedProduction(dir: string): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
  await install(dir, dependencyClosure(Object.keys(manifest.dependencies ?? {})));
}

interface Manifest {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const REPO_MODULES = join(REPO_ROOT, 'node_modules');

/** Every package installed at the top of this repository's node_modules (scoped ones by full name). */
function repositoryPackages(): string[] {
  // Dot entries are npm's own (.bin, .package-lock.json, caches): the project gets its own .bin.
  return readdirSync(REPO_MODULES)
    .filter((name) => !name.startsWith('.') && name !== 'opalite')
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(REPO_MODULES, name)).map((inner) => `${name}/${inner}`) : [name]));
}

/** `names` and everything they need from the top of node_modules (a copy nested inside a package comes with its link). */
function dependencyClosure(names: string[]): string[] {
  const found = new Set<string>();
  const seenDirs = new Set<string>();
  const visitDir = (dir: string) => {
    if (seenDirs.has(dir)) return;
    seenDirs.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    for (const needed of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies })) {
      const nested = join(dir, 'node_modules', needed);
      if (existsSync(nested)) visitDir(nested);
      else visitTop(needed);
    }
  };
  const visitTop = (name: string) => {
    // Optional and peer dependencies that are not installed are not needed.
    if (found.has(name) || !existsSync(join(REPO_MODULES, name, 'package.json'))) return;
    found.add(name);
    visitDir(join(REPO_MODULES, name));
  };
  for (const name of names) visitTop(name);
  return [...found];
}

async function install(dir: string, packages: string[]): Promise<void> {
  const tarball = await packedTarball();
  const modules = join(dir, 'node_modules');
  const target = join(modules, 'opalite');
  mkdirSync(target, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);

  for (const name of packages) {
    if (existsSync(join(modules, name))) continue;
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(join(REPO_MODULES, name), join(modules, name));
  }

  const { bin = {} } = JSON.parse(readFileSync(join(target, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
  mkdirSync(join(modules, '.bin'), { recursive: true });
  for (const [name, file] of Object.entries(bin)) {
    chmodSync(join(target, file), 0o755);
    const link = join(modules, '.bin', name);
    if (!existsSync(link)) symlinkSync(join('..', 'opalite', file), link);
  }
}
