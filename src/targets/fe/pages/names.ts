// Where each generated symbol lives and what it is called, so that every file refers to
// another resource's helpers the same way: `authors/author.tsx` exports `authorPath`,
// `authorTitle`, `useAuthorChoices` and `useAuthorChoiceLabel`.

import type { PageResource } from "./model.js";

/** The module of a resource's shared helpers, under src/generated/. */
export const helpersModule = (resource: PageResource) => `${resource.key}/${resource.camel}`;

/** The module of a resource's page component `component`, under src/generated/. */
export const pageModule = (resource: PageResource, component: string) => `${resource.key}/${resource.pascal}${component}`;

export const pathFn = (resource: PageResource) => `${resource.camel}Path`;
export const titleFn = (resource: PageResource) => `${resource.camel}Title`;
export const choicesHook = (resource: PageResource) => `use${resource.pascal}Choices`;
export const choiceLabelHook = (resource: PageResource) => `use${resource.pascal}ChoiceLabel`;

/** The client module under src/generated/ (re-exports the SDK, types and TanStack Query helpers). */
export const CLIENT = "client";

/** The module the filter bars and the forms' pickers share: the catalog and `/_values`. */
export const CATALOG = "catalog";
