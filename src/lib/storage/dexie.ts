// Dexie as Opalite uses it: every database the app opens imports Dexie from here.
// Dexie switches its debug mode on by itself when the page is served from localhost or
// 127.0.0.1, which is where developers run Opalite and where test suites start the sandbox. In
// debug mode every table call is wrapped in `console.createTask`, which captures a stack trace
// each time, and index hints are logged; neither is Opalite's to pay for, so it is off everywhere.
import { Dexie } from 'dexie';

Dexie.debug = false;

export { Dexie };
export type { EntityTable, Table, Transaction } from 'dexie';
