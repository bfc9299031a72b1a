// Pack the repository once for the whole `package` run (about 5 s: the package build, then npm's
// tarball); every test file installs that one tarball (tarball.ts reads its path from the env).
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { packRepository, TARBALL_ENV } from './tarball';

export default async function setup(): Promise<() => void> {
  const tarball = await packRepository();
  process.env[TARBALL_ENV] = tarball;
  return () => rmSync(dirname(tarball), { recursive: true, force: true });
}
