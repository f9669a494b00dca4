// Files kept in S3-compatible storage (docs/fe.md, Files). An upload declares the file to the
// backend, sends its bytes straight to storage with the presigned URL and headers the backend
// answered, then tells the backend they are in; a download asks the backend for a short-lived
// URL and saves the bytes under the file's own name. The bytes never pass through the backend,
// so the storage's CORS rules must let the pages' origin PUT and GET.

import { useState } from "react";
import { FieldFrame } from "./fields";
import { FormFrame } from "./forms";
import { explain } from "./errors";
import { saveFile } from "./export";
import { messages } from "./messages";

/** What an upload declares: the backend checks the type and size before signing a URL. */
export interface DeclaredFile {
  filename: string;
  content_type: string;
  size_bytes: number;
}

/** The backend's answer to a declared file: `PUT` the bytes to `upload_url` with `headers`. */
export interface UploadTicket {
  id: string;
  upload_url: string;
  headers: Record<string, string>;
}

/** Storage refused the bytes (its HTTP status), or could not be reached (0). */
export class StorageError extends Error {
  readonly status: number;

  constructor(status: number) {
    super(
      status === 0
        ? messages().storageUnreachable
        : messages().storageRefused(status),
    );
    this.name = "StorageError";
    this.status = status;
  }
}

/** The fields of the upload's body, where the backend's 422 may point: all are the file input's. */
const DECLARED = ["filename", "content_type", "size_bytes"];

/** Sends `file` to the ticket's URL, telling `onProgress` the share sent (0 to 1). */
function sendBytes(
  ticket: UploadTicket,
  file: File,
  onProgress: (share: number) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    // XMLHttpRequest, not fetch: only it reports an upload's progress.
    const request = new XMLHttpRequest();
    request.open("PUT", ticket.upload_url);
    for (const [name, value] of Object.entries(ticket.headers))
      request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () =>
      request.status >= 200 && request.status < 300
        ? resolve()
        : reject(new StorageError(request.status));
    request.onerror = () => reject(new StorageError(0));
    request.send(file);
  });
}

interface UploadFormProps {
  label: string;
  /** The media types the backend takes (the file input's `accept`), when it lists them. */
  accept?: string;
  declare: (file: DeclaredFile) => Promise<UploadTicket>;
  complete: (id: string) => Promise<unknown>;
  /** The file is stored: its row's key. */
  onDone: (id: string) => void;
  onCancel: () => void;
}

/** A file input and its upload: declared, sent with its progress shown, completed. */
export function UploadForm(props: UploadFormProps) {
  const t = messages();
  const [file, setFile] = useState<File | null>(null);
  const [share, setShare] = useState<number | null>(null);
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  const [formError, setFormError] = useState<string | null>(null);

  async function upload(chosen: File) {
    setShare(0);
    try {
      const ticket = await props.declare({
        filename: chosen.name,
        content_type: chosen.type || "application/octet-stream",
        size_bytes: chosen.size,
      });
      await sendBytes(ticket, chosen, setShare);
      await props.complete(ticket.id);
      props.onDone(ticket.id);
    } catch (error) {
      setShare(null);
      const explained = explain(error, DECLARED);
      const atFile = Object.values(explained.fields);
      if (atFile.length > 0) setFileError(atFile.join(" "));
      setFormError(explained.form);
    }
  }

  return (
    <FormFrame
      label={props.label}
      submitLabel={t.upload}
      busy={share !== null}
      error={formError}
      onSubmit={() => {
        setFileError(undefined);
        setFormError(null);
        if (file === null) setFileError(t.chooseFile);
        else void upload(file);
      }}
      onCancel={props.onCancel}
    >
      <FieldFrame label={t.file} required error={fileError}>
        {({ input, described }) => (
          <input
            id={input}
            type="file"
            accept={props.accept}
            required
            aria-describedby={described}
            aria-invalid={fileError ? true : undefined}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        )}
      </FieldFrame>
      {share !== null && (
        <p className="upload-progress" role="status">
          <progress value={share} max={1} aria-label={t.uploadProgress} />{" "}
          {t.uploading(Math.round(share * 100))}
        </p>
      )}
    </FormFrame>
  );
}

interface DownloadButtonProps {
  /** The name the saved file gets. */
  filename: string;
  /** Asks the backend for the bytes' short-lived URL. */
  ticket: () => Promise<{ download_url: string }>;
}

/** Saves a stored file under its own name: a button, then the bytes fetched from storage. */
export function DownloadButton({ filename, ticket }: DownloadButtonProps) {
  const t = messages();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const { download_url } = await ticket();
      // Fetched, not followed: a link to another origin would ignore the file's name.
      const response = await fetch(download_url).catch(() => {
        throw new StorageError(0);
      });
      if (!response.ok) throw new StorageError(response.status);
      saveFile(await response.blob(), filename);
    } catch (caught) {
      setError(explain(caught, []).form);
    } finally {
      setBusy(false);
    }
  }

  return (
    <span className="download">
      <button
        type="button"
        disabled={busy}
        aria-label={t.downloadFile(filename)}
        onClick={() => void download()}
      >
        {busy ? t.downloading : t.download}
      </button>
      {error !== null && <span role="alert"> {error}</span>}
    </span>
  );
}
