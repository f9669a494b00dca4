// The frame every page sits in: a header with the app's name and account controls, a
// navigation between resources, the page itself; and the states a page may be in
// besides showing data: loading, failed, not found.

import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { ApiError } from "./errors";

/** An entry of the navigation. */
export interface NavItem {
  path: string;
  label: string;
}

interface LayoutProps {
  title: string;
  navigation: readonly NavItem[];
  /** Sign-in state and controls, when the backend has authentication. */
  account?: ReactNode;
  children: ReactNode;
}

export function Layout({ title, navigation, account, children }: LayoutProps) {
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <Link className="brand" to="/">
          {title}
        </Link>
        {account}
      </header>
      <nav className="sidebar" aria-label="Resources">
        <ul>
          {navigation.map((item) => (
            <li key={item.path}>
              <NavLink to={item.path}>{item.label}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main">{children}</main>
    </div>
  );
}

export function Loading() {
  return (
    <p className="loading" role="status">
      Loading…
    </p>
  );
}

export function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>Nothing is here. It may have been deleted, or the address is mistyped.</p>
      <p>
        <Link to="/">Back to the start</Link>
      </p>
    </section>
  );
}

/** A failed request, with its reason and a way to try again. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  if (error instanceof ApiError && error.status === 404) return <NotFound />;
  const reason = error instanceof Error ? error.message : String(error);
  return (
    <div className="error-state" role="alert">
      <p>Could not load this page: {reason}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

/** Shows `children(data)` once `query` has data; loading and error states before. */
export function QueryView<T>({
  query,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  return <>{children(query.data)}</>;
}

/** What the previous page reported when it brought the reader here ("Article deleted."). */
export function Notice() {
  const state: unknown = useLocation().state;
  const notice =
    typeof state === "object" && state !== null && "notice" in state && typeof state.notice === "string"
      ? state.notice
      : null;
  if (notice === null) return null;
  return (
    <p className="notice" role="status">
      {notice}
    </p>
  );
}
