// The files around the resources' pages: the client re-export with its error handling, the
// route table, the app component, the session and login page (with authentication), the
// runtime copied as it is, and the user's customization file (written once, never again).

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { posix } from "node:path";
import type { Lookup } from "./cells.js";
import { Imports, groupsArray, tsString } from "./code.js";
import type { PageOperation, PagesModel } from "./model.js";
import { catalogFile } from "./filter-files.js";
import { pageModule } from "./names.js";
import { PageFile } from "./output.js";
import { resourceFiles } from "./resource-files.js";

const GENERATED = "src/generated";
const RUNTIME_DIR = fileURLToPath(new URL("../runtime/", import.meta.url));

/** The runtime modules, read once: copied byte for byte into src/generated/runtime/. */
const RUNTIME: readonly { name: string; content: string }[] = readdirSync(RUNTIME_DIR)
  .sort()
  .map((name) => ({ name, content: readFileSync(`${RUNTIME_DIR}${name}`, "utf8") }));

/** Every file of the pages, from the model; `clientDir` is the openapi-ts output (`src/client`). */
export function pageFiles(model: PagesModel, clientDir: string, storageKey: string): PageFile[] {
  const byKey = new Map(model.resources.map((resource) => [resource.key, resource]));
  const lookup: Lookup = (key) => {
    const resource = byKey.get(key);
    if (!resource) throw new Error(`pages: no resource "${key}" (the model was checked when the config was parsed)`);
    return resource;
  };
  const auth = model.tokenFn !== undefined;
  return [
    ...RUNTIME.map(
      ({ name, content }) =>
        // A CSS file has no banner line before its header comment: the banner goes first anyway.
        new PageFile({ path: `${GENERATED}/runtime/${name}`, template: "pages/verbatim.njk", context: { content } }),
    ),
    new PageFile({
      path: `${GENERATED}/client.ts`,
      template: "pages/client.ts.njk",
      context: { client_dir: posix.relative(GENERATED, clientDir) },
    }),
    ...model.resources.flatMap((resource) => resourceFiles(resource, lookup, model.catalog !== undefined, auth)),
    ...(model.catalog ? [catalogFile(model.catalog)] : []),
    routesFile(model, auth),
    appFile(model, auth),
    ...(auth
      ? [
          model.cookieSession
            ? new PageFile({
                path: `${GENERATED}/session.ts`,
                template: "pages/session-cookie.ts.njk",
                context: {
                  token_fn: model.tokenFn,
                  sdk_fns: [model.tokenFn!, model.cookieSession.sessionFn, model.cookieSession.logoutFn].sort().join(", "),
                  session_fn: model.cookieSession.sessionFn,
                  logout_fn: model.cookieSession.logoutFn,
                  session_path: tsString(model.cookieSession.sessionPath),
                },
              })
            : new PageFile({
                path: `${GENERATED}/session.ts`,
                template: "pages/session.ts.njk",
                context: { token_fn: model.tokenFn, storage_key: tsString(storageKey) },
              }),
          new PageFile({ path: `${GENERATED}/Login.tsx`, template: "pages/Login.tsx.njk", context: {} }),
        ]
      : []),
    new PageFile({ path: "src/custom/pages.tsx", template: "pages/custom-pages.tsx.njk", context: {}, ifExists: "skip", banner: false }),
    new PageFile({ path: "src/custom/messages.ts", template: "pages/custom-messages.ts.njk", context: {}, ifExists: "skip", banner: false }),
  ];
}

function routesFile(model: PagesModel, auth: boolean): PageFile {
  const imports = new Imports("");
  imports.typeFrom("react", "ComponentType");
  imports.typeFrom("react", "ReactNode");
  imports.type("runtime/shell", "NavItem");
  const pages = model.resources.flatMap((resource) => {
    const route = `/${resource.key}`;
    const page = (kind: string, component: string, path: string, op: PageOperation) => ({
      id: tsString(`${resource.key}.${kind}`),
      component: imports.use(pageModule(resource, component), `${resource.pascal}${component}`),
      path: tsString(path),
      signed_in: auth && op.secured ? "true" : "false",
      groups: groupsArray(op),
    });
    return [
      ...(resource.list ? [page("list", "List", route, resource.list)] : []),
      ...(resource.create ? [page("create", "Create", `${route}/new`, resource.create)] : []),
      ...(resource.files && !resource.create ? [page("upload", "Upload", `${route}/new`, resource.files.upload)] : []),
      ...(resource.get ? [page("detail", "Detail", `${route}/:pk`, resource.get)] : []),
      ...(resource.update && resource.get ? [page("edit", "Edit", `${route}/:pk/edit`, resource.update)] : []),
    ];
  });
  const home = model.navigation[0] ? `/${model.navigation[0].key}` : "/login";
  return new PageFile({
    path: `${GENERATED}/routes.tsx`,
    template: "pages/routes.tsx.njk",
    imports: imports.collector,
    context: {
      pages,
      auth,
      navigation: model.navigation.map((resource) => ({ path: tsString(`/${resource.key}`), label: tsString(resource.plural), groups: groupsArray(resource.list) })),
      home: tsString(home),
    },
  });
}

function appFile(model: PagesModel, auth: boolean): PageFile {
  const imports = new Imports("");
  for (const name of ["Navigate", "Route", "RouterProvider", "Routes", "createBrowserRouter"]) imports.from("react-router", name);
  for (const name of ["extraRoutes", "overrides"]) imports.collector.addFrom("../custom/pages", name);
  imports.collector.addFrom("../custom/messages", "translations");
  imports.use("runtime/language", "chooseLanguage");
  for (const name of ["HOME", "navigation", "pageRoutes", "pages"]) imports.use("routes", name);
  for (const name of ["Layout", "NotFound"]) imports.use("runtime/shell", name);
  if (auth) {
    for (const name of ["Account", "LoginPage", "RequireGroups", "RequireSession", "useAllowedItems"]) imports.use("Login", name);
    imports.use("session", "useSession");
    imports.use("runtime/stored", "ChoicesOwner");
  }
  return new PageFile({
    path: `${GENERATED}/App.tsx`,
    template: "pages/App.tsx.njk",
    imports: imports.collector,
    context: { title: tsString(model.title), auth, language: model.language && tsString(model.language), language_comment: model.language },
  });
}
