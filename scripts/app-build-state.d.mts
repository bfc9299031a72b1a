// Types of app-build-state.mjs (plain JavaScript: `npm start` runs it before anything is installed).
export function appBuildFingerprint(root: string): string;
export function isAppBuildCurrent(root: string, buildDir: string): boolean;
export function recordAppBuild(buildDir: string, fingerprint: string): void;
