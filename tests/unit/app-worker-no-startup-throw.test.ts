// scripts/app-worker-no-startup-throw.mjs: protobufjs's Buffer probe, as the app's minified service
// worker holds it, reads a missing Buffer without throwing; a worker without exactly one probe fails
// the build. (tests/e2e/app-worker-startup.test.ts runs the whole built worker.)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { withoutBufferProbeThrow } from '../../scripts/app-worker-no-startup-throw.mjs';

/** protobufjs's util/minimal.js as the app's build minifies it (esbuild, which Vite minifies with). */
async function minifiedProtobufUtil(): Promise<string> {
  const path = createRequire(import.meta.url).resolve('protobufjs/src/util/minimal.js');
  return (await transform(readFileSync(path, 'utf8'), { minify: true, format: 'esm', target: 'es2020' })).code;
}

/** The probe's function expression, `util` named `util`; the rest of the module needs other modules. */
function probeOf(code: string): string {
  const match = /\(function\(\)\{try\{var [\w$]+=([\w$]+)\.global\.Buffer.*?\}catch\{return null\}\}\)\(\)/.exec(code);
  if (!match) throw new Error(`no Buffer probe in ${code.slice(0, 200)}`);
  return match[0].replace(`${match[1]}.global`, 'util.global');
}

/** The probe's answer, and how many errors it threw, on a global holding `globals`. */
function probe(code: string, globals: object): [unknown, number] {
  const counted = probeOf(code).replace('catch{', 'catch{thrown++;');
  return runInNewContext(`var thrown = 0; [${counted}, thrown]`, { util: { global: globals } }) as [unknown, number];
}

describe('the app worker without a startup throw', () => {
  it('rewrites the minified Buffer probe so that a missing Buffer reads as none, without a TypeError', async () => {
    const minified = await minifiedProtobufUtil();
    expect(probe(minified, {})).toEqual([null, 1]);
    expect(probe(withoutBufferProbeThrow(minified), {})).toEqual([null, 0]);
  });

  it("keeps a Node Buffer found by the probe, and a browser's own Buffer-like still reads as none", async () => {
    const patched = withoutBufferProbeThrow(await minifiedProtobufUtil());
    const NodeBuffer = { prototype: { utf8Write() {} } };
    expect(probe(patched, { Buffer: NodeBuffer })).toEqual([NodeBuffer, 0]);
    expect(probe(patched, { Buffer: { prototype: {} } })).toEqual([null, 0]);
  });

  it('fails the build when the worker holds no probe, or more than one', async () => {
    const minified = await minifiedProtobufUtil();
    expect(() => withoutBufferProbeThrow('self.addEventListener("fetch",()=>{})')).toThrow(/holds 0 protobufjs Buffer probes/);
    expect(() => withoutBufferProbeThrow(minified + minified)).toThrow(/holds 2 protobufjs Buffer probes/);
  });
});
