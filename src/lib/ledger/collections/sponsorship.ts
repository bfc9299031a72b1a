// Collection sponsorship: set (unconfirmed), confirm by the sponsor, remove.
import type { CallHandler } from '../context';
import { DispatchError } from '../errors';
import { ensureOwnerOrAdmin, loadMutableCollection, saveCollection } from './shared';

/** Owner or admin; replaces any sponsor (confirmed or not) with an unconfirmed one. */
export const setCollectionSponsor: CallHandler<'unique.setCollectionSponsor'> = async (ctx, { collectionId, newSponsor }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureOwnerOrAdmin(collection, ctx.signer);
  collection.sponsorship = { address: newSponsor, isConfirmed: false };
  await saveCollection(ctx, collection);
  ctx.emit('common', 'CollectionSponsorSet', { collectionId, sponsor: newSponsor });
};

/** Only the pending (unconfirmed) sponsor itself; anything else is `common.ConfirmSponsorshipFail`. */
export const confirmSponsorship: CallHandler<'unique.confirmSponsorship'> = async (ctx, { collectionId }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  const pending = collection.sponsorship && !collection.sponsorship.isConfirmed ? collection.sponsorship.address : null;
  if (pending !== ctx.signer) {
    const why =
      pending === null
        ? collection.sponsorship
          ? `its sponsor ${collection.sponsorship.address} is already confirmed`
          : 'it has no pending sponsor; use setCollectionSponsor first'
        : `the pending sponsor is ${pending}`;
    throw new DispatchError('common.ConfirmSponsorshipFail', `${ctx.signer} cannot confirm sponsorship of collection ${collectionId}: ${why}`);
  }
  collection.sponsorship = { address: ctx.signer, isConfirmed: true };
  await saveCollection(ctx, collection);
  ctx.emit('common', 'SponsorshipConfirmed', { collectionId, sponsor: ctx.signer });
};

/** Owner or admin; succeeds (and emits) even when there is no sponsor. */
export const removeCollectionSponsor: CallHandler<'unique.removeCollectionSponsor'> = async (ctx, { collectionId }) => {
  const collection = await loadMutableCollection(ctx, collectionId);
  ensureOwnerOrAdmin(collection, ctx.signer);
  collection.sponsorship = null;
  await saveCollection(ctx, collection);
  ctx.emit('common', 'CollectionSponsorRemoved', { collectionId });
};
