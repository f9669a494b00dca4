"""Presigned URLs of ``files.py``: signed locally for the declared type and size, the
storage read from ``S3_*`` or kiln's ``KILN_S3_*`` variables; object keys that start
with the row's id. The end-to-end test (test/e2e/kiln.test.ts) sends bytes through them
to a real S3 server."""

import uuid
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from fastapi import HTTPException
from runtime import files

FILE_ID = uuid.UUID("12345678-1234-5678-1234-567812345678")


@pytest.fixture(autouse=True)
def storage(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("BUCKET", "ENDPOINT_URL", "REGION"):
        monkeypatch.delenv(f"S3_{name}", raising=False)
        monkeypatch.delenv(f"KILN_S3_{name}", raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "test-key")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
    files._client.cache_clear()
    yield
    files._client.cache_clear()


def test_object_keys_start_with_the_id_and_keep_plain_names() -> None:
    assert files.object_key(FILE_ID, "notes.txt") == f"{FILE_ID.hex}/notes.txt"
    assert files.object_key(FILE_ID, "../a b/ü.png") == f"{FILE_ID.hex}/a_b_.png"
    assert files.object_key(FILE_ID, "...") == f"{FILE_ID.hex}/file"


def test_an_upload_url_is_signed_for_its_type_and_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("S3_BUCKET", "uploads")
    monkeypatch.setenv("S3_ENDPOINT_URL", "http://127.0.0.1:9")
    key = files.object_key(FILE_ID, "notes.txt")
    ticket = files.presign_upload(FILE_ID, key, "text/plain", 5)
    url = urlsplit(ticket.upload_url)
    assert (url.netloc, url.path) == ("127.0.0.1:9", f"/uploads/{key}")
    query = parse_qs(url.query)
    assert query["X-Amz-SignedHeaders"] == ["content-length;content-type;host"]
    assert query["X-Amz-Expires"] == [str(files.PRESIGN_SECONDS)]
    assert ticket.id == FILE_ID
    assert ticket.headers == {"Content-Type": "text/plain"}


def test_kilns_variables_name_the_storage_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KILN_S3_BUCKET", "kiln-files")
    monkeypatch.setenv("KILN_S3_ENDPOINT_URL", "http://127.0.0.1:9")
    url = urlsplit(files.presign_download("a/b.txt").download_url)
    assert url.path == "/kiln-files/a/b.txt"


def test_without_a_bucket_a_route_answers_503_naming_the_variable() -> None:
    with pytest.raises(HTTPException) as refused:
        files.presign_download("a/b.txt")
    assert refused.value.status_code == 503
    assert "S3_BUCKET" in str(refused.value.detail)
