import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, compareWithWorker, describeCompatibility, hello, readChannelMessage, readHello } from './protocol';

describe('channel messages', () => {
  it('reads the messages of this version', () => {
    expect(readChannelMessage({ v: 1, type: 'block', number: 3, hash: '0xab', extrinsics: 2 })).toEqual({ v: 1, type: 'block', number: 3, hash: '0xab', extrinsics: 2 });
    expect(readChannelMessage({ v: 1, type: 'block', number: 3, hash: '0xab' })).toMatchObject({ extrinsics: 0 });
    expect(readChannelMessage({ v: 1, type: 'replaced', genesisHash: '0x01', number: 0, hash: '0x01' })?.type).toBe('replaced');
    expect(readChannelMessage({ v: 1, type: 'block-mode', mode: { kind: 'interval', ms: 6000 } })).toMatchObject({ mode: { kind: 'interval', ms: 6000 } });
    expect(readChannelMessage({ v: 1, type: 'impersonation', genesisHash: '0x01', enabled: true })).toEqual({ v: 1, type: 'impersonation', genesisHash: '0x01', enabled: true });
  });

  it('ignores other versions, unknown types and garbage', () => {
    for (const data of [
      { v: 2, type: 'block', number: 3, hash: '0xab' },
      { type: 'block', number: 3, hash: '0xab' },
      { v: 1, type: 'gossip' },
      { v: 1, type: 'block', number: '3', hash: '0xab' },
      { v: 1, type: 'block-mode', mode: { kind: 'interval' } },
      { v: 1, type: 'impersonation', genesisHash: '0x01', enabled: 'yes' },
      { v: 1, type: 'impersonation', enabled: true },
      null,
      'block',
      42
    ]) {
      expect(readChannelMessage(data)).toBeNull();
    }
  });
});

describe('hello', () => {
  const page = hello('1700000000000', 1);

  it('carries the protocol version, the build and the schema', () => {
    expect(page).toEqual({ v: PROTOCOL_VERSION, type: 'hello', appVersion: '1700000000000', dbSchemaVersion: 1 });
    expect(readHello({ v: 7, type: 'hello' })).toEqual({ v: 7, type: 'hello', appVersion: 'unknown', dbSchemaVersion: 0 });
    expect(readHello({ type: 'SKIP_WAITING' })).toBeNull();
  });

  it('compares a page with its worker', () => {
    expect(compareWithWorker(page, hello('1700000000000', 1))).toEqual({ kind: 'same' });
    expect(compareWithWorker(page, hello('1700000009999', 1)).kind).toBe('worker-newer');
    expect(compareWithWorker(page, hello('1600000000000', 1)).kind).toBe('worker-older');
    expect(compareWithWorker(page, hello('1600000000000', 2)).kind).toBe('worker-newer');
    expect(compareWithWorker(page, hello('1800000000000', 0)).kind).toBe('worker-older');
    expect(compareWithWorker(page, hello('release-b', 1)).kind).toBe('worker-different');
    expect(compareWithWorker(page, { ...hello('1700000000000', 1), v: 2 })).toEqual({ kind: 'protocol', worker: 2, page: 1 });
  });

  it('says in words what differs, and nothing when all matches', () => {
    expect(describeCompatibility({ kind: 'same' })).toBeNull();
    expect(describeCompatibility(compareWithWorker(page, hello('1700000009999', 1)))).toMatch(/newer version of Opalite .* Reload/);
    expect(describeCompatibility(compareWithWorker(page, hello('1600000000000', 1)))).toMatch(/This page .* is newer/);
    expect(describeCompatibility({ kind: 'protocol', worker: 2, page: 1 })).toMatch(/protocol version 2/);
  });
});
