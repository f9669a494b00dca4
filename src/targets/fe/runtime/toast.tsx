// Feedback that does not move the page: a notification in a corner, announced to screen
// readers (role "status", or "alert" for a failure), stacked with any others in one
// "Notifications" landmark at the end of the body. A success fades after a while; a failure
// stays until the reader dismisses it.

import { type ReactNode, useEffect } from "react";
import { createPortal } from "react-dom";
import { messages } from "./messages";

const SUCCESS_SHOWN_MS = 8000;

/** The landmark every toast is rendered into, made on first use. */
function toastHost(): HTMLElement {
  const existing = document.getElementById("toasts");
  if (existing !== null) return existing;
  const host = document.createElement("div");
  host.id = "toasts";
  host.className = "toasts";
  host.setAttribute("role", "region");
  host.setAttribute("aria-label", messages().notifications);
  document.body.append(host);
  return host;
}

interface ToastProps {
  tone: "success" | "error";
  onDismiss: () => void;
  children: ReactNode;
}

export function Toast({ tone, onDismiss, children }: ToastProps) {
  useEffect(() => {
    if (tone !== "success") return;
    const timer = setTimeout(onDismiss, SUCCESS_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [tone, onDismiss]);
  return createPortal(
    <div className={`toast toast-${tone}`} role={tone === "error" ? "alert" : "status"}>
      <div className="toast-text">{children}</div>
      <button type="button" className="toast-close" aria-label={messages().dismiss} onClick={onDismiss}>
        ×
      </button>
    </div>,
    toastHost(),
  );
}
