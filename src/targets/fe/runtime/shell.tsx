// The frame every page sits in: a header with the app's name and account controls, a
// navigation between resources (a column on wide screens, a drawer behind a Menu button on
// narrow ones, styles.css), the page itself; and the states a page may be in
// besides showing data: loading, failed, not found.

import type { UseQueryResult } from "@tanstack/react-query";
import { type ReactNode, useCallback, useId, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { ApiError } from "./errors";
import { Toast } from "./toast";
import { messages } from "./messages";

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
  const [drawer, setDrawer] = useState(false);
  const navId = useId();
  const t = messages();
  return (
    <div className="shell">
      <a className="skip" href="#main">
        {t.skipToContent}
      </a>
      <header>
        <button
          type="button"
          className="menu"
          aria-expanded={drawer}
          aria-controls={navId}
          onClick={() => setDrawer(!drawer)}
        >
          {t.menu}
        </button>
        <Link className="brand" to="/">
          {title}
        </Link>
        {account}
      </header>
      <nav id={navId} className={drawer ? "sidebar open" : "sidebar"} aria-label={t.resources}>
        <ul>
          {navigation.map((item) => (
            <li key={item.path}>
              <NavLink to={item.path} onClick={() => setDrawer(false)}>
                {item.label}
              </NavLink>
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
      {messages().loading}
    </p>
  );
}

export function NotFound() {
  const t = messages();
  return (
    <section>
      <h1>{t.notFound}</h1>
      <p>{t.notFoundText}</p>
      <p>
        <Link to="/">{t.backToStart}</Link>
      </p>
    </section>
  );
}

/** A failed request, with its reason and a way to try again. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  if (error instanceof ApiError && error.status === 404) return <NotFound />;
  const t = messages();
  const reason = error instanceof Error ? error.message : String(error);
  return (
    <div className="error-state" role="alert">
      <p>{t.couldNotLoad(reason)}</p>
      {retry && (
        <button type="button" onClick={retry}>
          {t.tryAgain}
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

/** What the previous page reported when it brought the reader here ("Article deleted."), as a toast. */
export function Notice() {
  const location = useLocation();
  const [dismissed, setDismissed] = useState<string | null>(null);
  const dismiss = useCallback(() => setDismissed(location.key), [location.key]);
  const state: unknown = location.state;
  const notice =
    typeof state === "object" && state !== null && "notice" in state && typeof state.notice === "string"
      ? state.notice
      : null;
  if (notice === null || dismissed === location.key) return null;
  return (
    <Toast tone="success" onDismiss={dismiss}>
      {notice}
    </Toast>
  );
}
