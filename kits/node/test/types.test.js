// index.d.ts is written by hand (TypeScript's compiler is not available to the build): this checks it declares
// exactly what the running module has — its exports, the mock's members, the options the JSDoc documents, the
// interception handle and MockAPNsError's fields — and nothing it does not.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import * as kit from 'mockapns';

const root = fileURLToPath(new URL('..', import.meta.url));
const declarations = fs.readFileSync(`${root}/index.d.ts`, 'utf8');

/** Names index.d.ts exports as values (functions, classes, constants). */
function declaredValues() {
  return [...declarations.matchAll(/^export declare (?:function|class|const) (\w+)/gm)].map((m) => m[1]).sort();
}

/** The members of `export interface name` (or the fields of `export declare class name`), one per line. */
function declaredMembers(name) {
  const start = declarations.search(new RegExp(`^export (?:interface|declare class) ${name}\\b[^{]*\\{$`, 'm'));
  assert.notEqual(start, -1, `index.d.ts declares no ${name}`);
  const body = declarations.slice(start, declarations.indexOf('\n}', start));
  const members = [...body.matchAll(/^ {2}(?:readonly )?(\[Symbol\.\w+\]|\w+)\??[(:]/gm)].map((m) => m[1]);
  return members.filter((member) => member !== 'constructor').sort();
}

/** An object's own keys, its well-known symbols written `[Symbol.name]` as in a declaration. */
function keysOf(object) {
  const symbols = Object.getOwnPropertySymbols(object).map((symbol) => {
    const known = Object.getOwnPropertyNames(Symbol).find((name) => Symbol[name] === symbol);
    return known ? `[Symbol.${known}]` : String(symbol);
  });
  return [...Object.keys(object), ...symbols].sort();
}

/** The @property names of one JSDoc @typedef in src/index.js. */
function documentedOptions(typedef) {
  const source = fs.readFileSync(`${root}/src/index.js`, 'utf8');
  const start = source.indexOf(`@typedef {object} ${typedef}`);
  assert.notEqual(start, -1, `src/index.js documents no ${typedef}`);
  const block = source.slice(start, source.indexOf('*/', start));
  return [...block.matchAll(/@property \{[^}]*\} \[?(\w+)/g)].map((m) => m[1]).sort();
}

describe('index.d.ts', () => {
  it('declares every export of the module as a value, and no other', () => {
    assert.deepEqual(declaredValues(), Object.keys(kit).sort());
  });

  it("declares every option the JSDoc documents, and no other", () => {
    const documented = documentedOptions('MockAPNsOptions');
    assert.ok(documented.length >= 10, `only ${documented.length} options found in the JSDoc`);
    assert.deepEqual(declaredMembers('MockAPNsOptions'), documented);
  });

  it("declares every member of a running mock and of its interception, and no other", async () => {
    const mock = await kit.startMockAPNs({ appleHosts: true });
    try {
      assert.deepEqual(declaredMembers('MockAPNs'), keysOf(mock));
      const interception = mock.intercept();
      assert.deepEqual(declaredMembers('Interception'), keysOf(interception));
      interception.restore();
    } finally {
      await mock.stop();
    }
  });

  it("declares MockAPNsError's own fields", () => {
    const error = new kit.MockAPNsError('x', { stderr: '', status: 400, container: 'c', cause: new Error('y') });
    const fields = keysOf(error).filter((key) => key !== 'name' && key !== 'cause');
    assert.deepEqual(declaredMembers('MockAPNsError'), fields);
  });
});
