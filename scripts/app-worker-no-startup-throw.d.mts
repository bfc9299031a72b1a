// Types of app-worker-no-startup-throw.mjs (plain JavaScript, loaded by vite.config.ts).
import type { Plugin } from 'vite';
export function withoutBufferProbeThrow(code: string): string;
export function appWorkerNoStartupThrow(): Plugin;
