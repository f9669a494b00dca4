// Yours: codegen writes this file once and never touches it again. Generated pages live in
// src/generated/ and are rewritten on every run; customize them from here.
//
// - Replace a page: map its id to a component of yours, e.g.
//   import { MyArticleList } from "./MyArticleList";
//   export const overrides: Overrides = { "articles.list": MyArticleList };
//   The ids are typed: one that no longer exists after regenerating fails `tsc`.
// - Add a page: add a route, e.g. { path: "/reports", element: <Reports />, label: "Reports" }.
import type { ExtraRoute, Overrides } from "../generated/routes";

export const overrides: Overrides = {};

export const extraRoutes: ExtraRoute[] = [];
