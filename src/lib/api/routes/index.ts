// The route table.
import type { Route } from '../route';
import { balanceRoutes } from './balance';
import { collectionRoutes } from './collections';
import { commonRoutes } from './common';
import { extrinsicRoutes } from './extrinsic';
import { tokenRoutes } from './tokens';

export function allRoutes(): Route[] {
  return [...collectionRoutes, ...tokenRoutes, ...balanceRoutes, ...commonRoutes, ...extrinsicRoutes];
}
