import { TypeRegistry } from '@polkadot/types';
import { CHAIN_COLLECTION_TYPES } from './testing/chain-type-defs';
import { describe, expect, it } from 'vitest';
import type { Call, CallName, Property, PropertyKeyPermission } from './call-types';
import { isEthereumAddress } from './address';
import { CallDecodeError, CallEncodeError, UTILITY_PALLET, callFromJson, callIndexOf, chainArgsOf, decodeCall, encodeCall } from './calls';
import { fromHex, toHex } from './hash';
import { tokenNestingAddress } from './nesting';

const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALICE_PK = 'd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d';
const BOB = '5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty';
const BOB_PK = '8eaf04151687736326c9fea17e25fc5287613693c912909cb226aa4794f26a48';
const ETH = '0x' + 'ab'.repeat(20);
const NEST = tokenNestingAddress(1, 2);
const U128_MAX = (1n << 128n) - 1n;

const PROPS: Property[] = [
  { key: 'n', value: 'Ünïcode ✓ 🎨' },
  { key: 'empty', value: '' },
  { key: 'bom', value: '\uFEFFleading byte-order mark' }
];
const TPP: PropertyKeyPermission[] = [
  { key: 'n', permission: { mutable: true, collectionAdmin: false, tokenOwner: true } },
  { key: 'i.c', permission: { mutable: false, collectionAdmin: true, tokenOwner: false } }
];

/** A representative value of every call, with all-present and all-absent variants of optionals. */
const SAMPLES: Call[] = [
  {
    name: 'unique.createCollectionEx',
    args: {
      data: {
        mode: 'Fungible',
        decimals: 18,
        access: 'AllowList',
        name: 'Opal ✓ 🎨',
        description: 'A collection with every optional field present',
        tokenPrefix: 'ÖPL',
        pendingSponsor: BOB,
        limits: {
          accountTokenOwnershipLimit: 1000,
          sponsoredDataSize: 2048,
          sponsoredDataRateLimit: 7,
          tokenLimit: 4294967295,
          sponsorTransferTimeout: 5,
          sponsorApproveTimeout: 6,
          ownerCanTransfer: true,
          ownerCanDestroy: false,
          transfersEnabled: true
        },
        permissions: {
          access: 'Normal',
          mintMode: true,
          nesting: { tokenOwner: true, collectionAdmin: false, restricted: [1, 5, 42] }
        },
        tokenPropertyPermissions: TPP,
        properties: PROPS,
        adminList: [BOB, ETH, NEST],
        readOnly: true
      }
    }
  },
  {
    name: 'unique.createCollectionEx',
    args: {
      data: {
        mode: 'NFT',
        decimals: 0,
        name: '',
        description: '',
        tokenPrefix: '',
        tokenPropertyPermissions: [],
        properties: [],
        adminList: []
      }
    }
  },
  {
    name: 'unique.createCollectionEx',
    args: {
      data: {
        mode: 'ReFungible',
        decimals: 0,
        name: 'x'.repeat(64),
        description: 'd'.repeat(256),
        tokenPrefix: 'P',
        limits: {},
        permissions: {},
        erc721metadata: true,
        tokenPropertyPermissions: [],
        properties: [],
        adminList: [ALICE]
      }
    }
  },
  { name: 'unique.destroyCollection', args: { collectionId: 5 } },
  { name: 'unique.setCollectionProperties', args: { collectionId: 7, properties: PROPS } },
  { name: 'unique.deleteCollectionProperties', args: { collectionId: 7, propertyKeys: ['n', 'a.b-c_d'] } },
  {
    name: 'unique.setCollectionLimits',
    args: {
      collectionId: 9,
      limits: {
        accountTokenOwnershipLimit: 0,
        sponsoredDataSize: 0,
        sponsoredDataRateLimit: 0,
        tokenLimit: 0,
        sponsorTransferTimeout: 0,
        sponsorApproveTimeout: 0,
        ownerCanTransfer: false,
        ownerCanDestroy: false,
        transfersEnabled: false
      }
    }
  },
  { name: 'unique.setCollectionLimits', args: { collectionId: 9, limits: {} } },
  { name: 'unique.setCollectionLimits', args: { collectionId: 9, limits: { tokenLimit: 10, transfersEnabled: true } } },
  {
    name: 'unique.setCollectionPermissions',
    args: {
      collectionId: 3,
      permissions: { access: 'AllowList', mintMode: false, nesting: { tokenOwner: false, collectionAdmin: true, restricted: [] } }
    }
  },
  {
    name: 'unique.setCollectionPermissions',
    args: { collectionId: 3, permissions: { nesting: { tokenOwner: true, collectionAdmin: true, restricted: null } } }
  },
  { name: 'unique.setCollectionPermissions', args: { collectionId: 3, permissions: {} } },
  { name: 'unique.setTokenPropertyPermissions', args: { collectionId: 11, propertyPermissions: TPP } },
  { name: 'unique.setTransfersEnabledFlag', args: { collectionId: 11, value: false } },
  { name: 'unique.changeCollectionOwner', args: { collectionId: 12, newOwner: BOB } },
  { name: 'unique.addCollectionAdmin', args: { collectionId: 12, newAdmin: ETH } },
  { name: 'unique.removeCollectionAdmin', args: { collectionId: 12, account: ALICE } },
  { name: 'unique.setCollectionSponsor', args: { collectionId: 12, newSponsor: BOB } },
  { name: 'unique.confirmSponsorship', args: { collectionId: 12 } },
  { name: 'unique.removeCollectionSponsor', args: { collectionId: 12 } },
  { name: 'unique.addToAllowList', args: { collectionId: 13, address: BOB } },
  { name: 'unique.removeFromAllowList', args: { collectionId: 13, address: ETH } },
  { name: 'unique.createItem', args: { collectionId: 1, owner: ALICE, properties: PROPS } },
  { name: 'unique.createItem', args: { collectionId: 1, owner: NEST, properties: [] } },
  {
    name: 'unique.createMultipleItemsEx',
    args: {
      collectionId: 1,
      items: [
        { owner: ALICE, properties: [] },
        { owner: NEST, properties: PROPS }
      ]
    }
  },
  { name: 'unique.createMultipleItemsEx', args: { collectionId: 1, items: [] } },
  { name: 'unique.createItem', args: { collectionId: 2, owner: ETH, properties: [], kind: 'Fungible', amount: U128_MAX } },
  { name: 'unique.createItem', args: { collectionId: 3, owner: NEST, properties: PROPS, kind: 'ReFungible', amount: 100n } },
  {
    name: 'unique.createMultipleItemsEx',
    args: {
      collectionId: 2,
      kind: 'Fungible',
      items: [
        { owner: BOB, properties: [], amount: 5n },
        { owner: ALICE, properties: [], amount: 0n },
        { owner: ETH, properties: [], amount: U128_MAX }
      ]
    }
  },
  {
    name: 'unique.createMultipleItemsEx',
    args: {
      collectionId: 3,
      kind: 'ReFungible',
      items: [
        { owner: ALICE, properties: PROPS, amount: 1n },
        { owner: ALICE, properties: [], amount: 10n ** 21n }
      ]
    }
  },
  {
    name: 'unique.createMultipleItemsEx',
    args: {
      collectionId: 3,
      kind: 'RefungibleMultipleOwners',
      items: [
        { owner: BOB, properties: [], amount: 2n },
        { owner: ALICE, properties: [], amount: 1n }
      ],
      properties: PROPS
    }
  },
  { name: 'unique.createMultipleItemsEx', args: { collectionId: 3, kind: 'RefungibleMultipleOwners', items: [{ owner: ETH, properties: [], amount: U128_MAX }], properties: [] } },
  { name: 'unique.repartition', args: { collectionId: 3, tokenId: 7, amount: 200n } },
  { name: 'unique.setAllowanceForAll', args: { collectionId: 3, operator: ETH, approve: true } },
  { name: 'unique.setAllowanceForAll', args: { collectionId: 4294967295, operator: BOB, approve: false } },
  {
    name: 'unique.createMultipleItems',
    args: {
      collectionId: 4,
      owner: BOB,
      items: [{ properties: PROPS }, { properties: [], kind: 'Fungible', amount: 500n }, { properties: PROPS, kind: 'ReFungible', amount: 3n }]
    }
  },
  { name: 'unique.createMultipleItems', args: { collectionId: 4, owner: NEST, items: [] } },
  { name: 'unique.setTokenProperties', args: { collectionId: 1, tokenId: 2, properties: PROPS } },
  { name: 'unique.deleteTokenProperties', args: { collectionId: 1, tokenId: 2, propertyKeys: ['n'] } },
  { name: 'unique.transfer', args: { to: BOB, collectionId: 1, tokenId: 2, value: 1n } },
  { name: 'unique.transfer', args: { to: NEST, collectionId: 4294967295, tokenId: 4294967295, value: U128_MAX } },
  { name: 'unique.transferFrom', args: { from: NEST, to: ALICE, collectionId: 1, tokenId: 3, value: 1n } },
  { name: 'unique.approve', args: { spender: ETH, collectionId: 1, tokenId: 3, amount: 0n } },
  { name: 'unique.burnItem', args: { collectionId: 1, tokenId: 3, value: 1n } },
  { name: 'unique.burnFrom', args: { collectionId: 1, from: BOB, tokenId: 3, value: 1n } },
  { name: 'balances.transferKeepAlive', args: { dest: BOB, value: 10n ** 18n } },
  { name: 'balances.transferKeepAlive', args: { dest: ETH, value: 0n } },
  { name: 'balances.transferKeepAlive', args: { dest: ALICE, value: U128_MAX } }
];

const ALL_NAMES: CallName[] = [
  'unique.createCollectionEx',
  'unique.destroyCollection',
  'unique.setCollectionProperties',
  'unique.deleteCollectionProperties',
  'unique.setCollectionLimits',
  'unique.setCollectionPermissions',
  'unique.setTokenPropertyPermissions',
  'unique.setTransfersEnabledFlag',
  'unique.changeCollectionOwner',
  'unique.addCollectionAdmin',
  'unique.removeCollectionAdmin',
  'unique.setCollectionSponsor',
  'unique.confirmSponsorship',
  'unique.removeCollectionSponsor',
  'unique.addToAllowList',
  'unique.removeFromAllowList',
  'unique.createItem',
  'unique.createMultipleItemsEx',
  'unique.createMultipleItems',
  'unique.setTokenProperties',
  'unique.deleteTokenProperties',
  'unique.transfer',
  'unique.transferFrom',
  'unique.approve',
  'unique.burnItem',
  'unique.burnFrom',
  'unique.repartition',
  'unique.setAllowanceForAll',
  'balances.transferKeepAlive'
];

describe('encodeCall / decodeCall round trip', () => {
  it('has a sample of every call name', () => {
    expect(new Set(SAMPLES.map((c) => c.name))).toEqual(new Set(ALL_NAMES));
  });

  it.each(SAMPLES.map((c, k) => [`${k} ${c.name}`, c] as const))('round-trips %s', (_label, call) => {
    expect(decodeCall(encodeCall(call))).toStrictEqual(call);
  });

  // The `#[pallet::call_index(n)]` of each call in the chain's pallets/unique/src/lib.rs
  // (approve_from, 24, is not modelled), and pallet-balances and pallet-utility's.
  it.each([
    ['unique.createCollectionEx', 1], ['unique.destroyCollection', 2], ['unique.addToAllowList', 3],
    ['unique.removeFromAllowList', 4], ['unique.changeCollectionOwner', 5], ['unique.addCollectionAdmin', 6],
    ['unique.removeCollectionAdmin', 7], ['unique.setCollectionSponsor', 8], ['unique.confirmSponsorship', 9],
    ['unique.removeCollectionSponsor', 10], ['unique.createItem', 11], ['unique.createMultipleItems', 12],
    ['unique.setCollectionProperties', 13], ['unique.deleteCollectionProperties', 14], ['unique.setTokenProperties', 15],
    ['unique.deleteTokenProperties', 16], ['unique.setTokenPropertyPermissions', 17], ['unique.createMultipleItemsEx', 18],
    ['unique.setTransfersEnabledFlag', 19], ['unique.burnItem', 20], ['unique.burnFrom', 21], ['unique.transfer', 22],
    ['unique.approve', 23], ['unique.transferFrom', 25], ['unique.setCollectionLimits', 26],
    ['unique.setCollectionPermissions', 27], ['unique.repartition', 28], ['unique.setAllowanceForAll', 29]
  ] as [CallName, number][])('numbers %s %i, as the chain does', (name, index) => {
    expect(callIndexOf(name)).toEqual([61, index]);
  });

  it('gives every call its own index', () => {
    const seen = new Set(ALL_NAMES.map((n) => callIndexOf(n).join('.')));
    expect(seen.size).toBe(ALL_NAMES.length);
  });

  it('decodes an absent optional as a missing key', () => {
    const decoded = decodeCall(encodeCall(SAMPLES[1]));
    if (decoded.name !== 'unique.createCollectionEx') throw new Error('wrong call');
    for (const key of ['access', 'pendingSponsor', 'limits', 'permissions', 'readOnly', 'erc721metadata']) {
      expect(Object.keys(decoded.args.data)).not.toContain(key);
    }
  });

  it('encodes null optionals as None and decodes them as absent', () => {
    const call: Call = {
      name: 'unique.setCollectionLimits',
      args: { collectionId: 1, limits: { tokenLimit: null, ownerCanTransfer: null, sponsorApproveTimeout: 3 } }
    };
    expect(decodeCall(encodeCall(call))).toStrictEqual({
      name: 'unique.setCollectionLimits',
      args: { collectionId: 1, limits: { sponsorApproveTimeout: 3 } }
    });
  });

  it('fills in missing nesting flags as false and a missing restriction as null', () => {
    const call: Call = { name: 'unique.setCollectionPermissions', args: { collectionId: 1, permissions: { nesting: { tokenOwner: true } } } };
    expect(decodeCall(encodeCall(call))).toStrictEqual({
      name: 'unique.setCollectionPermissions',
      args: { collectionId: 1, permissions: { nesting: { tokenOwner: true, collectionAdmin: false, restricted: null } } }
    });
  });

  it('normalizes addresses to the canonical form on decode', () => {
    const call: Call = {
      name: 'unique.transfer',
      args: { to: '0x' + 'AB'.repeat(20), collectionId: 1, tokenId: 1, value: 1n }
    };
    const decoded = decodeCall(encodeCall(call));
    expect(decoded.args).toMatchObject({ to: ETH });
    const unique: Call = {
      name: 'unique.addToAllowList',
      args: { collectionId: 1, address: 'unjKJQJrRd238pkUZZvzDQrfKuM39zBSnQ5zjAGAGcdRhaJTx' }
    };
    expect(decodeCall(encodeCall(unique)).args).toMatchObject({ address: ALICE });
  });
});

describe('fixed byte vectors', () => {
  it('unique.destroyCollection(5)', () => {
    expect(toHex(encodeCall({ name: 'unique.destroyCollection', args: { collectionId: 5 } }))).toBe('0x3d0205000000');
  });

  it('balances.transferKeepAlive(Bob, 1 unit)', () => {
    // 10^18 = 0x0de0b6b3a7640000: compact big-integer mode, 8 bytes (0x13 = (8 - 4) << 2 | 3).
    expect(toHex(encodeCall({ name: 'balances.transferKeepAlive', args: { dest: BOB, value: 10n ** 18n } }))).toBe(
      '0x1e0300' + BOB_PK + '13000064a7b3b6e00d'
    );
  });

  it('unique.transfer(Alice, 1, 2, 1)', () => {
    expect(toHex(encodeCall({ name: 'unique.transfer', args: { to: ALICE, collectionId: 1, tokenId: 2, value: 1n } }))).toBe(
      '0x3d1600' + ALICE_PK + '01000000' + '02000000' + '01' + '00'.repeat(15)
    );
  });

  it('unique.transferFrom(Alice, token (1, 2), 3, 4, 1) with an Ethereum recipient', () => {
    expect(
      toHex(encodeCall({ name: 'unique.transferFrom', args: { from: ALICE, to: NEST, collectionId: 3, tokenId: 4, value: 1n } }))
    ).toBe('0x3d1900' + ALICE_PK + '01' + NEST.slice(2) + '03000000' + '04000000' + '01' + '00'.repeat(15));
  });

  it('unique.setCollectionProperties(7, [{key: "n", value: "é"}])', () => {
    expect(
      toHex(encodeCall({ name: 'unique.setCollectionProperties', args: { collectionId: 7, properties: [{ key: 'n', value: 'é' }] } }))
    ).toBe('0x3d0d07000000' + '04' + '046e' + '08c3a9');
  });
});

// ---- cross-check against @polkadot/types with the chain's type definitions -------------------

const registry = new TypeRegistry();
registry.register({
  ...CHAIN_COLLECTION_TYPES,
  UniquePropertyPermission: { mutable: 'bool', collectionAdmin: 'bool', tokenOwner: 'bool' },
  PropertyKeyPermission: { key: 'Bytes', permission: 'UniquePropertyPermission' },
  // The chain's struct; `flags` is the CollectionFlags byte.
  CreateCollectionData: {
    mode: 'CollectionMode',
    access: 'Option<AccessMode>',
    name: 'Vec<u16>',
    description: 'Vec<u16>',
    tokenPrefix: 'Bytes',
    limits: 'Option<CollectionLimits>',
    permissions: 'Option<CollectionPermissions>',
    tokenPropertyPermissions: 'Vec<PropertyKeyPermission>',
    properties: 'Vec<UniqueProperty>',
    adminList: 'Vec<CrossAccountId>',
    pendingSponsor: 'Option<CrossAccountId>',
    flags: 'u8'
  },
  ChainCreateCollectionData: {
    mode: 'CollectionMode',
    access: 'Option<AccessMode>',
    name: 'Vec<u16>',
    description: 'Vec<u16>',
    tokenPrefix: 'Bytes',
    limits: 'Option<CollectionLimits>',
    permissions: 'Option<CollectionPermissions>',
    tokenPropertyPermissions: 'Vec<PropertyKeyPermission>',
    properties: 'Vec<UniqueProperty>',
    adminList: 'Vec<CrossAccountId>',
    pendingSponsor: 'Option<CrossAccountId>',
    flags: 'u8'
  },
  CreateNftData: { properties: 'Vec<UniqueProperty>' },
  CreateFungibleData: { value: 'u128' },
  CreateReFungibleData: { pieces: 'u128', properties: 'Vec<UniqueProperty>' },
  CreateItemData: { _enum: { NFT: 'CreateNftData', Fungible: 'CreateFungibleData', ReFungible: 'CreateReFungibleData' } },
  CreateNftExData: { properties: 'Vec<UniqueProperty>', owner: 'CrossAccountId' },
  CreateRefungibleExSingleOwner: { user: 'CrossAccountId', pieces: 'u128', properties: 'Vec<UniqueProperty>' },
  CreateRefungibleExMultipleOwners: { users: 'BTreeMap<CrossAccountId, u128>', properties: 'Vec<UniqueProperty>' },
  CreateItemExData: {
    _enum: {
      NFT: 'Vec<CreateNftExData>',
      Fungible: 'BTreeMap<CrossAccountId, u128>',
      RefungibleMultipleItems: 'Vec<CreateRefungibleExSingleOwner>',
      RefungibleMultipleOwners: 'CreateRefungibleExMultipleOwners'
    }
  }
});

const utf8Array = (s: string) => Array.from(new TextEncoder().encode(s));
const units = (s: string) => Array.from({ length: s.length }, (_, k) => s.charCodeAt(k));
const cross = (a: string) => (isEthereumAddress(a) ? { Ethereum: a } : { Substrate: a });
const props = (ps: Property[]) => ps.map((p) => ({ key: utf8Array(p.key), value: utf8Array(p.value) }));
const tpp = (ps: PropertyKeyPermission[]) => ps.map((p) => ({ key: utf8Array(p.key), permission: p.permission }));
const opt = <T>(v: T | null | undefined) => (v === undefined || v === null ? null : v);

/** A CreateItemData value as @polkadot/types takes it. */
function itemData({ kind, amount, properties }: { kind?: string; amount?: bigint; properties: Property[] }) {
  if (kind === 'Fungible') return { Fungible: { value: amount } };
  if (kind === 'ReFungible') return { ReFungible: { pieces: amount, properties: props(properties) } };
  return { NFT: { properties: props(properties) } };
}

/** The call's arguments as @polkadot/types sees them: [type, value] per argument. */
function polkadotArgs(call: Call): Array<[string, unknown]> {
  const c = call;
  switch (c.name) {
    case 'unique.createCollectionEx': {
      const d = c.args.data;
      const limits = d.limits && {
        ...d.limits,
        sponsoredDataRateLimit:
          d.limits.sponsoredDataRateLimit === undefined || d.limits.sponsoredDataRateLimit === null
            ? null
            : d.limits.sponsoredDataRateLimit === 0
              ? { SponsoringDisabled: null }
              : { Blocks: d.limits.sponsoredDataRateLimit }
      };
      return [
        [
          'CreateCollectionData',
          {
            mode: d.mode === 'Fungible' ? { Fungible: d.decimals } : d.mode,
            access: opt(d.access),
            name: units(d.name),
            description: units(d.description),
            tokenPrefix: utf8Array(d.tokenPrefix),
            limits: opt(limits),
            permissions: opt(d.permissions),
            tokenPropertyPermissions: tpp(d.tokenPropertyPermissions),
            properties: props(d.properties),
            adminList: d.adminList.map(cross),
            pendingSponsor: d.pendingSponsor ? cross(d.pendingSponsor) : null,
            flags: (d.readOnly ? 0x01 : 0) | (d.erc721metadata ? 0x40 : 0)
          }
        ]
      ];
    }
    case 'unique.destroyCollection':
    case 'unique.confirmSponsorship':
    case 'unique.removeCollectionSponsor':
      return [['u32', c.args.collectionId]];
    case 'unique.setCollectionProperties':
      return [['u32', c.args.collectionId], ['Vec<UniqueProperty>', props(c.args.properties)]];
    case 'unique.deleteCollectionProperties':
      return [['u32', c.args.collectionId], ['Vec<Bytes>', c.args.propertyKeys.map(utf8Array)]];
    case 'unique.setCollectionLimits': {
      const l = c.args.limits;
      const rate = l.sponsoredDataRateLimit;
      const value = { ...l, sponsoredDataRateLimit: rate === undefined || rate === null ? null : rate === 0 ? { SponsoringDisabled: null } : { Blocks: rate } };
      return [['u32', c.args.collectionId], ['CollectionLimits', value]];
    }
    case 'unique.setCollectionPermissions':
      return [['u32', c.args.collectionId], ['CollectionPermissions', c.args.permissions]];
    case 'unique.setTokenPropertyPermissions':
      return [['u32', c.args.collectionId], ['Vec<PropertyKeyPermission>', tpp(c.args.propertyPermissions)]];
    case 'unique.setTransfersEnabledFlag':
      return [['u32', c.args.collectionId], ['bool', c.args.value]];
    case 'unique.changeCollectionOwner':
      return [['u32', c.args.collectionId], ['CrossAccountId', cross(c.args.newOwner)]];
    case 'unique.addCollectionAdmin':
      return [['u32', c.args.collectionId], ['CrossAccountId', cross(c.args.newAdmin)]];
    case 'unique.removeCollectionAdmin':
      return [['u32', c.args.collectionId], ['CrossAccountId', cross(c.args.account)]];
    case 'unique.setCollectionSponsor':
      return [['u32', c.args.collectionId], ['CrossAccountId', cross(c.args.newSponsor)]];
    case 'unique.addToAllowList':
    case 'unique.removeFromAllowList':
      return [['u32', c.args.collectionId], ['CrossAccountId', cross(c.args.address)]];
    case 'unique.createItem':
      return [['u32', c.args.collectionId], ['CrossAccountId', cross(c.args.owner)], ['CreateItemData', itemData(c.args)]];
    case 'unique.createMultipleItems':
      return [['u32', c.args.collectionId], ['CrossAccountId', cross(c.args.owner)], ['Vec<CreateItemData>', c.args.items.map(itemData)]];
    case 'unique.createMultipleItemsEx': {
      const { kind, items } = c.args;
      const data =
        kind === 'Fungible'
          ? { Fungible: new Map(items.map((i) => [registry.createType('CrossAccountId', cross(i.owner)), i.amount])) }
          : kind === 'ReFungible'
            ? { RefungibleMultipleItems: items.map((i) => ({ user: cross(i.owner), pieces: i.amount, properties: props(i.properties) })) }
            : kind === 'RefungibleMultipleOwners'
              ? {
                  RefungibleMultipleOwners: {
                    users: new Map(items.map((i) => [registry.createType('CrossAccountId', cross(i.owner)), i.amount])),
                    properties: props(c.args.properties ?? [])
                  }
                }
              : { NFT: items.map((i) => ({ properties: props(i.properties), owner: cross(i.owner) })) };
      return [['u32', c.args.collectionId], ['CreateItemExData', data]];
    }
    case 'unique.repartition':
      return [['u32', c.args.collectionId], ['u32', c.args.tokenId], ['u128', c.args.amount]];
    case 'unique.setAllowanceForAll':
      return [['u32', c.args.collectionId], ['CrossAccountId', cross(c.args.operator)], ['bool', c.args.approve]];
    case 'unique.setTokenProperties':
      return [['u32', c.args.collectionId], ['u32', c.args.tokenId], ['Vec<UniqueProperty>', props(c.args.properties)]];
    case 'unique.deleteTokenProperties':
      return [['u32', c.args.collectionId], ['u32', c.args.tokenId], ['Vec<Bytes>', c.args.propertyKeys.map(utf8Array)]];
    case 'unique.transfer':
      return [['CrossAccountId', cross(c.args.to)], ['u32', c.args.collectionId], ['u32', c.args.tokenId], ['u128', c.args.value]];
    case 'unique.transferFrom':
      return [
        ['CrossAccountId', cross(c.args.from)],
        ['CrossAccountId', cross(c.args.to)],
        ['u32', c.args.collectionId],
        ['u32', c.args.tokenId],
        ['u128', c.args.value]
      ];
    case 'unique.approve':
      return [['CrossAccountId', cross(c.args.spender)], ['u32', c.args.collectionId], ['u32', c.args.tokenId], ['u128', c.args.amount]];
    case 'unique.burnItem':
      return [['u32', c.args.collectionId], ['u32', c.args.tokenId], ['u128', c.args.value]];
    case 'unique.burnFrom':
      return [['u32', c.args.collectionId], ['CrossAccountId', cross(c.args.from)], ['u32', c.args.tokenId], ['u128', c.args.value]];
    case 'balances.transferKeepAlive':
      return [
        ['MultiAddress', isEthereumAddress(c.args.dest) ? { Address20: c.args.dest } : { Id: c.args.dest }],
        ['Compact<u128>', c.args.value]
      ];
    case 'utility.batch':
    case 'utility.batchAll':
      throw new Error('batches are checked against their parts in their own test');
  }
}

describe('agreement with @polkadot/types and the chain type definitions', () => {
  it.each(SAMPLES.map((c, k) => [`${k} ${c.name}`, c] as const))('encodes %s as polkadot does', (_label, call) => {
    const [pallet, index] = callIndexOf(call.name);
    const argsHex = polkadotArgs(call)
      .map(([type, value]) => toHex(registry.createType(type, value).toU8a()).slice(2))
      .join('');
    const expected = '0x' + pallet.toString(16).padStart(2, '0') + index.toString(16).padStart(2, '0') + argsHex;
    expect(toHex(encodeCall(call))).toBe(expected);
  });

  it('matches the chain layout of CreateCollectionData, the erc721metadata flag as 64 (encodeCollection of @unique-nft/schemas 2.x)', () => {
    const call = SAMPLES.find((c) => c.name === 'unique.createCollectionEx' && c.args.data.erc721metadata);
    if (call?.name !== 'unique.createCollectionEx') throw new Error('no sample with the erc721metadata flag');
    const [[, value]] = polkadotArgs(call) as Array<[string, Record<string, unknown>]>;
    const chain = registry.createType('ChainCreateCollectionData', { ...value, flags: 64 });
    expect(toHex(encodeCall(call))).toBe('0x3d01' + toHex(chain.toU8a()).slice(2));
  });

  it('refuses collection flags it does not model (foreign, reserved bits)', () => {
    const bytes = encodeCall(SAMPLES[1]);
    for (const flags of [0x80, 0x02]) {
      const tampered = bytes.slice();
      tampered[tampered.length - 1] = flags;
      expect(() => decodeCall(tampered)).toThrow(/collection flags/);
    }
  });
});

// ---- errors -----------------------------------------------------------------------------------

describe('decodeCall errors', () => {
  const transfer = encodeCall({ name: 'unique.transfer', args: { to: BOB, collectionId: 1, tokenId: 2, value: 1n } });

  it.each([
    ['', 'Call is truncated: 0 byte(s), a call index needs 2'],
    ['0x3d', 'Call is truncated: 1 byte(s), a call index needs 2'],
    ['0x0000', 'Unknown pallet index 0'],
    ['0x3d00', 'Unknown call index 0 in pallet 61'],
    ['0x3d63', 'Unknown call index 99 in pallet 61'],
    ['0x1e00', 'Unknown call index 0 in pallet 30'],
    ['0x0a03', 'Unknown pallet index 10'],
    ['0x3d02', 'Cannot decode the arguments of unique.destroyCollection: unexpected end of input in u32'],
    ['0x3d020500', 'Cannot decode the arguments of unique.destroyCollection: unexpected end of input in u32'],
    ['0x3d020500000000', 'Cannot decode the arguments of unique.destroyCollection: 1 trailing byte(s)'],
    ['0x3d130100000002', 'Cannot decode the arguments of unique.setTransfersEnabledFlag: invalid bool byte 2'],
    ['0x3d1a0100000002', 'Cannot decode the arguments of unique.setCollectionLimits: invalid option byte 2'],
    ['0x3d18', 'Unknown call index 24 in pallet 61'],
    ['0x3d03010000000201', 'Cannot decode the arguments of unique.addToAllowList: unknown CrossAccountId variant 2'],
    ['0x3d0d01000000feffffff', 'Cannot decode the arguments of unique.setCollectionProperties: unexpected end of input in a list of 1073741823'],
    ['0x3d0e0100000004' + '04ff', 'Cannot decode the arguments of unique.deleteCollectionProperties: invalid UTF-8'],
    ['0x3d0e010000000408', 'Cannot decode the arguments of unique.deleteCollectionProperties: unexpected end of input in bytes'],
    ['0x3d0b0100000001' + 'ab'.repeat(20) + '03', 'Cannot decode the arguments of unique.createItem: unknown CreateItemData variant 3'],
    ['0x3d120100000004', 'Cannot decode the arguments of unique.createMultipleItemsEx: unknown CreateItemExData variant 4'],
    ['0x3d120100000003', 'Cannot decode the arguments of unique.createMultipleItemsEx: unexpected end of input'],
    ['0x1e0301' + '00', 'Cannot decode the arguments of balances.transferKeepAlive: MultiAddress variant 1 is not supported (only Id and Address20)'],
    // Compact 1 written in two-byte mode is not canonical.
    ['0x1e0300' + BOB_PK + '0500', 'Cannot decode the arguments of balances.transferKeepAlive: non-canonical compact']
  ])('rejects %s', (hex, message) => {
    const bytes = fromHex(hex || '0x');
    expect(() => decodeCall(bytes)).toThrow(CallDecodeError);
    expect(() => decodeCall(bytes)).toThrow(message);
  });

  it('refuses an Ethereum account as a new owner or sponsor (plain AccountIds on the chain)', () => {
    const eth = new Uint8Array(20).fill(0x12);
    for (const index of [5, 8]) {
      const bytes = new Uint8Array([61, index, 1, 0, 0, 0, 1, ...eth]);
      expect(() => decodeCall(bytes)).toThrow(CallDecodeError);
      expect(() => decodeCall(bytes)).toThrow(/an Ethereum account where the chain takes an AccountId/);
    }
  });

  it('rejects a truncated call at every length', () => {
    for (let n = 0; n < transfer.length; n++) {
      expect(() => decodeCall(transfer.subarray(0, n))).toThrow(CallDecodeError);
    }
  });

  it('reads a subarray from its own start', () => {
    const padded = new Uint8Array(transfer.length + 3);
    padded.set(transfer, 3);
    expect(decodeCall(padded.subarray(3))).toStrictEqual(decodeCall(transfer));
  });
});

describe('encodeCall errors', () => {
  it.each([
    [{ name: 'unique.destroyCollection', args: { collectionId: -1 } }, 'Cannot encode unique.destroyCollection: u32 out of range: -1'],
    [{ name: 'unique.destroyCollection', args: { collectionId: 2 ** 32 } }, 'Cannot encode unique.destroyCollection: u32 out of range: 4294967296'],
    [{ name: 'unique.burnItem', args: { collectionId: 1, tokenId: 1, value: 1 } }, 'Cannot encode unique.burnItem: u128 expects a bigint, got number'],
    [{ name: 'unique.burnItem', args: { collectionId: 1, tokenId: 1, value: -1n } }, 'Cannot encode unique.burnItem: u128 out of range: -1'],
    [{ name: 'unique.addToAllowList', args: { collectionId: 1, address: 'nobody' } }, 'Cannot encode unique.addToAllowList: Invalid address: nobody'],
    [
      { name: 'unique.createCollectionEx', args: { data: { ...(SAMPLES[1].args as { data: object }).data, decimals: 18 } } },
      'Cannot encode unique.createCollectionEx: decimals must be 0 for mode NFT, got 18'
    ],
    [
      { name: 'unique.setCollectionProperties', args: { collectionId: 1, properties: [{ key: 'k', value: 'lone \uD800' }] } },
      'Cannot encode unique.setCollectionProperties: string has an unpaired surrogate'
    ],
    [
      { name: 'unique.createItem', args: { collectionId: 1, owner: ALICE, properties: PROPS, kind: 'Fungible', amount: 1n } },
      'Cannot encode unique.createItem: Fungible item data has no properties'
    ],
    [{ name: 'unique.createItem', args: { collectionId: 1, owner: ALICE, properties: [], kind: 'ReFungible' } }, 'Cannot encode unique.createItem: ReFungible item data needs an amount'],
    [{ name: 'unique.createItem', args: { collectionId: 1, owner: ALICE, properties: [], amount: 1n } }, 'Cannot encode unique.createItem: NFT item data has no amount'],
    [
      { name: 'unique.createMultipleItemsEx', args: { collectionId: 1, kind: 'RefungibleMultipleOwners', items: [{ owner: ALICE, properties: PROPS, amount: 1n }] } },
      'Cannot encode unique.createMultipleItemsEx: RefungibleMultipleOwners items have no properties'
    ],
    [
      { name: 'unique.createMultipleItemsEx', args: { collectionId: 1, kind: 'ReFungible', items: [], properties: [] } },
      'Cannot encode unique.createMultipleItemsEx: only RefungibleMultipleOwners data has properties beside its items'
    ],
    [
      { name: 'unique.changeCollectionOwner', args: { collectionId: 1, newOwner: '0x1234567890123456789012345678901234567890' } },
      "Cannot encode unique.changeCollectionOwner: must be a Substrate account (the chain's AccountId), not the Ethereum address 0x1234567890123456789012345678901234567890"
    ],
    [
      { name: 'unique.setCollectionSponsor', args: { collectionId: 1, newSponsor: '0x1234567890123456789012345678901234567890' } },
      "Cannot encode unique.setCollectionSponsor: must be a Substrate account (the chain's AccountId), not the Ethereum address"
    ],
    [{ name: 'unique.nope', args: {} }, 'Unknown call: unique.nope']
  ])('rejects %#', (call, message) => {
    expect(() => encodeCall(call as unknown as Call)).toThrow(CallEncodeError);
    expect(() => encodeCall(call as unknown as Call)).toThrow(message);
  });
});

describe('chainArgsOf', () => {
  it('lists the chain’s arguments in order, also where the named args are laid out otherwise', () => {
    expect(chainArgsOf({ name: 'unique.changeCollectionOwner', args: { newOwner: BOB, collectionId: 12 } } as Call)).toEqual([12, BOB]);
    const item = { collectionId: 3, owner: ALICE, properties: PROPS } as const;
    const [collectionId, owner, data] = chainArgsOf({ name: 'unique.createItem', args: item } as Call);
    expect([collectionId, owner]).toEqual([3, ALICE]);
    expect(data).toMatchObject({ properties: PROPS });
  });
});

describe('callFromJson', () => {
  const json = (value: unknown) => JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));

  it.each(SAMPLES.map((c, k) => [`${k} ${c.name}`, c] as const))('reads %s from JSON with its amounts as decimal strings', (_label, call) => {
    expect(callFromJson(call.name, json(call.args))).toStrictEqual(call);
  });

  it('reads amounts sent as JSON numbers in lists: item amounts, pieces per owner and batched calls', () => {
    const items = [{ properties: [], kind: 'Fungible', amount: 500 }, { properties: [], kind: 'Fungible', amount: '400' }];
    expect(callFromJson('unique.createMultipleItems', { collectionId: 4, owner: BOB, items }).args).toMatchObject({
      items: [{ amount: 500n }, { amount: 400n }]
    });
    const owners = { collectionId: 3, kind: 'RefungibleMultipleOwners', items: [{ owner: ALICE, properties: [], amount: 1 }, { owner: BOB, properties: [], amount: 2 }], properties: [] };
    const batch = callFromJson('utility.batchAll', { calls: [{ name: 'unique.createMultipleItemsEx', args: owners }, { name: 'unique.transfer', args: { to: BOB, collectionId: 3, tokenId: 1, value: 1 } }] });
    expect(batch.args).toMatchObject({ calls: [{ args: { items: [{ amount: 1n }, { amount: 2n }] } }, { args: { value: 1n } }] });
    expect(() => encodeCall(batch)).not.toThrow();
  });

  it('keeps an NFT item without an amount, and refuses an amount that is no u128 with the path to it', () => {
    const nft = callFromJson('unique.createMultipleItems', { collectionId: 1, owner: ALICE, items: [{ properties: [] }] });
    expect(nft.args).toStrictEqual({ collectionId: 1, owner: ALICE, items: [{ properties: [] }] });
    const refused = (name: string, args: unknown) => () => callFromJson(name, args);
    const items = (amount: unknown) => ({ collectionId: 1, owner: ALICE, items: [{ properties: [], kind: 'Fungible', amount: 1 }, { properties: [], kind: 'Fungible', amount }] });
    expect(refused('unique.createMultipleItems', items(-1))).toThrow(CallEncodeError);
    expect(refused('unique.createMultipleItems', items(-1))).toThrow('Cannot encode unique.createMultipleItems: args.items[1].amount must be a whole number from 0 to 2^128 - 1');
    expect(refused('unique.createMultipleItems', items(null))).toThrow('args.items[1].amount must be');
    expect(refused('unique.createMultipleItemsEx', { collectionId: 1, kind: 'Fungible', items: [{ owner: ALICE, properties: [], amount: '2.5' }] })).toThrow('args.items[0].amount must be');
    expect(refused('utility.batch', { calls: [{ name: 'unique.burnItem', args: { collectionId: 1, tokenId: 1, value: 'all' } }] })).toThrow('args.calls[0].args.value must be');
    expect(refused('balances.transferKeepAlive', { dest: BOB, value: (2n ** 128n).toString() })).toThrow('args.value must be');
  });

  it('answers an unknown call as encodeCall does, whatever its name', () => {
    for (const name of ['unique.nope', 'constructor', '__proto__', 'toString']) {
      expect(() => callFromJson(name, {})).toThrow(`Unknown call: ${name}`);
    }
  });
});

describe('utility.batch / utility.batchAll', () => {
  const parts = SAMPLES.slice(0, 3);
  it.each(['utility.batch', 'utility.batchAll'] as const)('%s is the utility index, a compact count and the encoded calls', (name) => {
    const call = { name, args: { calls: parts } } as Call;
    const expected = concatBytesForTest([
      new Uint8Array([UTILITY_PALLET, name === 'utility.batch' ? 0 : 2, parts.length << 2]),
      ...parts.map((p) => encodeCall(p))
    ]);
    expect(toHex(encodeCall(call))).toBe(toHex(expected));
    expect(decodeCall(encodeCall(call))).toEqual(call);
  });

  it('refuses a batch inside a batch, encoding and decoding', () => {
    const inner = { name: 'utility.batch', args: { calls: parts } } as Call;
    expect(() => encodeCall({ name: 'utility.batchAll', args: { calls: [inner] } })).toThrow(CallEncodeError);
    const forged = concatBytesForTest([new Uint8Array([UTILITY_PALLET, 2, 1 << 2]), encodeCall(inner)]);
    expect(() => decodeCall(forged)).toThrow(CallDecodeError);
  });

  it('refuses an unknown call inside a batch', () => {
    expect(() => decodeCall(new Uint8Array([UTILITY_PALLET, 0, 1 << 2, 250, 0]))).toThrow(CallDecodeError);
  });
});

function concatBytesForTest(parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((p) => [...p]));
}

// ---- positional args in polkadot.js JSON (the real service's /extrinsic/build form) ---------------

describe('callFromJson with positional args in polkadot.js form', () => {
  const hex = (s: string) => toHex(new TextEncoder().encode(s));
  const accountMap = (pairs: Array<[unknown, unknown]>) => new Map(pairs.map(([k, v]) => [registry.createType('CrossAccountId', k), v]));
  /** [name, positional args as sent, polkadot.js types, the values polkadot.js encodes when they differ from the args]. */
  const CASES: Array<[CallName, unknown[], string[], unknown[]?]> = [
    ['balances.transferKeepAlive', [BOB, '1000000000000000000'], ['MultiAddress', 'Compact<u128>']],
    ['balances.transferKeepAlive', [{ Id: '0x' + BOB_PK }, 12345], ['MultiAddress', 'Compact<u128>']],
    ['balances.transferKeepAlive', [{ Address20: ETH }, '0x10'], ['MultiAddress', 'Compact<u128>']],
    ['unique.createItem', [7, { Substrate: BOB }, { NFT: { properties: [{ key: 'a', value: 'b' }, { key: 'h', value: hex('Ünï ✓') }] } }], ['u32', 'CrossAccountId', 'CreateItemData']],
    ['unique.createItem', [7, { Ethereum: ETH }, { Fungible: { value: '340282366920938463463374607431768211455' } }], ['u32', 'CrossAccountId', 'CreateItemData']],
    ['unique.createItem', ['8', { substrate: ALICE }, { ReFungible: { pieces: 100, properties: [{ key: 'n', value: 'x' }] } }], ['u32', 'CrossAccountId', 'CreateItemData']],
    ['unique.createItem', [8, { Substrate: ALICE }, { NFT: {} }], ['u32', 'CrossAccountId', 'CreateItemData']],
    [
      'unique.createMultipleItemsEx',
      [3, { NFT: [{ owner: { Substrate: ALICE }, properties: [{ key: 'a', value: '1' }] }, { owner: { Ethereum: ETH } }] }],
      ['u32', 'CreateItemExData']
    ],
    [
      'unique.createMultipleItemsEx',
      [3, { Fungible: { [JSON.stringify({ Substrate: ALICE })]: '5', [BOB]: 7, [JSON.stringify({ ethereum: ETH })]: '9' } }],
      ['u32', 'CreateItemExData'],
      [3, { Fungible: accountMap([[{ Substrate: ALICE }, 5], [{ Substrate: BOB }, 7], [{ Ethereum: ETH }, 9]]) }]
    ],
    [
      'unique.createMultipleItemsEx',
      [3, { RefungibleMultipleItems: [{ user: { Substrate: BOB }, pieces: '10', properties: [{ key: 'k', value: 'v' }] }] }],
      ['u32', 'CreateItemExData']
    ],
    [
      'unique.createMultipleItemsEx',
      [3, { RefungibleMultipleOwners: { users: [[{ Substrate: BOB }, 2], [{ Substrate: ALICE }, '3']], properties: [{ key: 'k', value: 'v' }] } }],
      ['u32', 'CreateItemExData'],
      [3, { RefungibleMultipleOwners: { users: accountMap([[{ Substrate: BOB }, 2], [{ Substrate: ALICE }, 3]]), properties: [{ key: 'k', value: 'v' }] } }]
    ],
    [
      'unique.createCollectionEx',
      [
        {
          mode: { Fungible: 18 },
          access: 'AllowList',
          name: units('Opal ✓'),
          description: units('positional'),
          tokenPrefix: 'ÖPL',
          limits: { tokenLimit: 10, sponsoredDataRateLimit: { Blocks: 5 }, ownerCanDestroy: false },
          permissions: { access: 'Normal', mintMode: true, nesting: { tokenOwner: true, collectionAdmin: false, restricted: [1, 2] } },
          tokenPropertyPermissions: [{ key: 'n', permission: { mutable: true, collectionAdmin: false, tokenOwner: true } }],
          properties: [{ key: 'p', value: hex('q') }],
          adminList: [{ Ethereum: ETH }],
          pendingSponsor: { Substrate: BOB },
          flags: 64
        }
      ],
      ['CreateCollectionData']
    ],
    ['unique.createCollectionEx', [{ mode: 'NFT', name: units('n'), description: [], tokenPrefix: 'T', limits: { sponsoredDataRateLimit: 'SponsoringDisabled' } }], ['CreateCollectionData']],
    ['unique.transfer', [{ Ethereum: ETH }, 1, 2, '3'], ['CrossAccountId', 'u32', 'u32', 'u128']],
    ['unique.setCollectionPermissions', [4, { access: 'AllowList', nesting: { tokenOwner: true, collectionAdmin: true, restricted: null } }], ['u32', 'CollectionPermissions']],
    ['unique.deleteCollectionProperties', [4, ['a', hex('b')]], ['u32', 'Vec<Bytes>']],
    ['unique.setTokenProperties', [4, 5, [{ key: 'a', value: 'b' }]], ['u32', 'u32', 'Vec<UniqueProperty>']]
  ];

  it.each(CASES.map((c, k) => [`${k} ${c[0]}`, c] as const))('encodes %s as polkadot.js encodes the same args', (_label, [name, args, types, values]) => {
    const [pallet, index] = callIndexOf(name);
    const expected = [pallet, index].map((b) => b.toString(16).padStart(2, '0')).join('') + types.map((type, k) => toHex(registry.createType(type, (values ?? args)[k]).toU8a()).slice(2)).join('');
    expect(toHex(encodeCall(callFromJson(name, args)))).toBe('0x' + expected);
  });

  it('reads the same call as the named form', () => {
    expect(callFromJson('unique.createItem', [7, { Substrate: BOB }, { Fungible: { value: '5' } }])).toStrictEqual(
      callFromJson('unique.createItem', { collectionId: 7, owner: BOB, properties: [], kind: 'Fungible', amount: '5' })
    );
    expect(callFromJson('balances.transferKeepAlive', [BOB, '10'])).toStrictEqual({ name: 'balances.transferKeepAlive', args: { dest: BOB, value: 10n } });
  });

  it.each([
    ['unique.createItem', [7, { Substrate: BOB }], 'args has 2 value(s), unique.createItem takes 3 (collectionId, owner, data)'],
    ['unique.createItem', [7, { Substrate: 'nobody' }, { NFT: {} }], 'args[1] (owner): Invalid address: nobody; got {"Substrate":"nobody"}'],
    ['unique.createItem', [7, BOB, { Fungible: { value: '-1' } }], 'args[2].Fungible.value must be a whole number'],
    ['unique.createItem', [7, BOB, { Nope: {} }], 'args[2] must be a CreateItemData: NFT, Fungible, ReFungible'],
    ['unique.createItem', [7, BOB, { NFT: { properties: [{ key: 'k', value: '0xff' }] } }], 'args[2].NFT.properties[0].value is not UTF-8 text'],
    ['unique.createMultipleItemsEx', [1, { Fungible: { [BOB]: 1, [JSON.stringify({ Substrate: BOB })]: 2 } }], `args[1].Fungible names ${BOB} twice`],
    ['unique.createCollectionEx', [{ mode: 'NFT', name: [], description: [], tokenPrefix: '', flags: 0x80 }], 'args[0] (data): collection flags 0x80 are not supported'],
    ['balances.transferKeepAlive', [{ Index: 1 }, 1], 'args[0] must be a MultiAddress (Id or Address20)'],
    ['unique.destroyCollection', ['x'.repeat(500)], 'args[0] (collectionId): u32 expects a number, got string; got "' + 'x'.repeat(100)]
  ])('refuses %s (case %#) naming the argument', (name, args, message) => {
    expect(() => callFromJson(name, args)).toThrow(CallEncodeError);
    expect(() => callFromJson(name, args)).toThrow(message);
  });

  it('quotes a long argument bounded', () => {
    const error = (() => {
      try {
        callFromJson('unique.destroyCollection', ['x'.repeat(5000)]);
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(error!.length).toBeLessThan(500);
  });
});
