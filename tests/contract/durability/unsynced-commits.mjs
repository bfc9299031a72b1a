// TEST FAULT, loaded only by durable-ack.test.ts (`node --import` before the host): every
// `PRAGMA synchronous = …` the host sets becomes `synchronous = OFF`, so commits return before the
// log reaches the disk. It shows that the durability test fails when acknowledgements do not wait
// for the disk. Nothing in the host or the package can turn this on.
import { createRequire } from 'node:module';

const Database = createRequire(import.meta.url)('better-sqlite3');
const pragma = Database.prototype.pragma;
Database.prototype.pragma = function (source, options) {
  return pragma.call(this, /^\s*synchronous\s*=/i.test(source) ? 'synchronous = OFF' : source, options);
};
