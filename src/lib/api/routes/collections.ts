// Collection routes: reads (collections-read.ts) and mutations (collections-write.ts).
import type { Route } from '../route';
import { collectionReadRoutes } from './collections-read';
import { collectionWriteRoutes } from './collections-write';

export const collectionRoutes: Route[] = [...collectionReadRoutes, ...collectionWriteRoutes];
