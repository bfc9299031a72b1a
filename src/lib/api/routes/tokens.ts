// Token routes: reads (tokens-read.ts) and mutations (tokens-write.ts).
import type { Route } from '../route';
import { tokenReadRoutes } from './tokens-read';
import { tokenWriteRoutes } from './tokens-write';

export const tokenRoutes: Route[] = [...tokenReadRoutes, ...tokenWriteRoutes];
