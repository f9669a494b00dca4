"""Files kept in S3-compatible storage, each described by a row of the resource's model.

The model has kiln's file columns: ``id`` (a UUID), ``s3_key``, ``content_type``,
``size_bytes``, ``original_filename``, ``created_at`` and ``uploaded_at``. A file moves
through three steps: its upload route stores a row with ``uploaded_at`` unset and
answers a presigned ``PUT`` URL bound to the declared content type and size; the
client sends the bytes there; its complete route finds the object in the bucket and sets
``uploaded_at``. Only then does the download route presign a ``GET``. Deleting removes
the object, then the row.

Storage is read from the environment, never from generated source: ``S3_BUCKET``,
``S3_ENDPOINT_URL`` (an S3-compatible server; unset: AWS), ``S3_REGION``, each falling
back to kiln's ``KILN_S3_*`` name; credentials come from botocore's own chain
(``AWS_ACCESS_KEY_ID`` and ``AWS_SECRET_ACCESS_KEY``, a profile, an instance role).
Presigning signs locally; finding and deleting objects call the storage server.
"""

import asyncio
import os
import re
import uuid
from functools import cache
from typing import TYPE_CHECKING, Any

from fastapi import HTTPException, status
from pydantic import BaseModel

if TYPE_CHECKING:
    from botocore.client import BaseClient

PRESIGN_SECONDS = 900
"""Seconds a presigned URL works: a slow upload fits, a leaked URL soon expires."""


class UploadTicket(BaseModel):
    """Where to send a file's bytes: ``PUT`` them to ``upload_url`` with ``headers``."""

    id: uuid.UUID
    upload_url: str
    headers: dict[str, str]


class DownloadTicket(BaseModel):
    """A short-lived URL that ``GET``s the file's bytes."""

    download_url: str


def _setting(name: str) -> str | None:
    return os.environ.get(f"S3_{name}") or os.environ.get(f"KILN_S3_{name}") or None


@cache
def _client() -> tuple["BaseClient", str]:
    """The S3 client and the bucket, made on first use (botocore is slow to import)."""
    bucket = _setting("BUCKET")
    if bucket is None:
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE,
            "file storage is not configured: set S3_BUCKET",
        )
    import botocore.session
    from botocore.config import Config

    client = botocore.session.get_session().create_client(
        "s3",
        region_name=_setting("REGION") or "us-east-1",
        endpoint_url=_setting("ENDPOINT_URL"),
        config=Config(signature_version="s3v4", s3={"addressing_style": "path"}),
    )
    return client, bucket


def object_key(file_id: uuid.UUID, filename: str) -> str:
    """The object's key: the row's id, then the filename in plain characters."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", filename).strip("._") or "file"
    return f"{file_id.hex}/{safe[:200]}"


def presign_upload(
    file_id: uuid.UUID, key: str, content_type: str, size: int
) -> UploadTicket:
    """A ``PUT`` URL taking exactly ``size`` bytes of ``content_type`` at ``key``."""
    client, bucket = _client()
    params = {
        "Bucket": bucket,
        "Key": key,
        "ContentType": content_type,
        "ContentLength": size,
    }
    url = client.generate_presigned_url(
        "put_object", Params=params, ExpiresIn=PRESIGN_SECONDS
    )
    headers = {"Content-Type": content_type}
    return UploadTicket(id=file_id, upload_url=url, headers=headers)


def presign_download(key: str) -> DownloadTicket:
    """A ``GET`` URL of the object at ``key``."""
    client, bucket = _client()
    url = client.generate_presigned_url(
        "get_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=PRESIGN_SECONDS
    )
    return DownloadTicket(download_url=url)


async def stored_size(key: str) -> int | None:
    """The size of the object at ``key`` in the bucket, or None when there is none."""
    from botocore.exceptions import BotoCoreError, ClientError

    client, bucket = _client()
    try:
        head: dict[str, Any] = await asyncio.to_thread(
            client.head_object, Bucket=bucket, Key=key
        )
    except ClientError as error:
        if error.response.get("Error", {}).get("Code") in ("404", "NoSuchKey"):
            return None
        raise _unavailable(error) from error
    except BotoCoreError as error:
        raise _unavailable(error) from error
    return int(head["ContentLength"])


async def delete_object(key: str) -> None:
    """Delete the object at ``key``; one already gone is no error."""
    from botocore.exceptions import BotoCoreError, ClientError

    client, bucket = _client()
    try:
        await asyncio.to_thread(client.delete_object, Bucket=bucket, Key=key)
    except (BotoCoreError, ClientError) as error:
        raise _unavailable(error) from error


def not_uploaded() -> HTTPException:
    """The answer for a file whose bytes the complete route has not found yet."""
    return HTTPException(status.HTTP_409_CONFLICT, "the file's upload is not complete")


def _unavailable(error: Exception) -> HTTPException:
    return HTTPException(
        status.HTTP_503_SERVICE_UNAVAILABLE,
        f"file storage did not answer: {type(error).__name__}",
        headers={"Retry-After": "5"},
    )
