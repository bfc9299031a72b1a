// The route table.
import type { Route } from '../route';
import { balanceRoutes } from './balance';
import { batchRoutes } from './batch';
import { collectionRoutes } from './collections';
import { collectionV2Routes } from './collections-v2';
import { collectionExtraRoutes } from './collection-extras';
import { commonRoutes } from './common';
import { extrinsicRoutes } from './extrinsic';
import { fungibleRoutes } from './fungible';
import { galleryRoutes } from './gallery';
import { historyRoutes } from './history';
import { holdingRoutes } from './holdings';
import { refungibleRoutes } from './refungible';
import { stateQueryRoutes } from './state-query';
import { tokenRoutes } from './tokens';
import { tokenV2Routes } from './tokens-v2';

export function allRoutes(): Route[] {
  return [...collectionRoutes, ...tokenRoutes, ...balanceRoutes, ...commonRoutes, ...batchRoutes, ...extrinsicRoutes, ...fungibleRoutes, ...refungibleRoutes, ...collectionV2Routes, ...tokenV2Routes, ...collectionExtraRoutes, ...stateQueryRoutes, ...historyRoutes, ...holdingRoutes, ...galleryRoutes];
}
