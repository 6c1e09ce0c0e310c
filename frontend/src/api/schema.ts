/** The schemas of the server's OpenAPI document, generated into `schema.gen.ts`. */
import type { components } from './schema.gen';

export type Schemas = components['schemas'];
