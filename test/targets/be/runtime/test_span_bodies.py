"""What a span records of a body: credentials redacted at any depth, cut to size."""

import json

import pytest
from pydantic import BaseModel, SecretStr
from runtime.span_bodies import REDACTED, BodyPolicy


class Login(BaseModel):
    user: str
    passcode: SecretStr


class Signup(BaseModel):
    email: str
    newPassword: str  # noqa: N815 (a client's camelCase field)
    profile: dict[str, object]
    devices: list[dict[str, str]]
    login: Login


def test_credentials_are_redacted_whatever_their_spelling_and_depth() -> None:
    body = Signup(
        email="ada@example.com",
        newPassword="analytical-engine",
        profile={
            "X-Api-Key": "k-123",
            "bio": "counts",
            "nested": {"db_passphrase": "p"},
        },
        devices=[{"name": "phone", "refresh_token": "r-456", "Cookie": "sid=1"}],
        login=Login(user="ada", passcode=SecretStr("hidden-pin")),
    )
    text, truncated = BodyPolicy().text(body)
    assert not truncated
    for secret in ("analytical-engine", "k-123", "r-456", "sid=1", "hidden-pin", '"p"'):
        assert secret not in text, text
    recorded = json.loads(text)
    assert recorded["email"] == "ada@example.com"
    assert recorded["newPassword"] == REDACTED
    assert recorded["profile"] == {
        "X-Api-Key": REDACTED,
        "bio": "counts",
        "nested": {"db_passphrase": REDACTED},
    }
    assert recorded["devices"] == [
        {"name": "phone", "refresh_token": REDACTED, "Cookie": REDACTED}
    ]
    # A SecretStr never shows its value, whatever its field's name.
    assert recorded["login"]["passcode"] == "**********"


def test_credential_values_are_redacted_under_any_key() -> None:
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJl"
    text, _ = BodyPolicy().text(
        {"note": "Bearer abc.def", "forward": "basic YWRhOnB3", "kept": jwt, "n": 3}
    )
    assert json.loads(text) == {
        "note": REDACTED,
        "forward": REDACTED,
        "kept": REDACTED,
        "n": 3,
    }


def test_named_fields_are_matched_whole_whatever_their_case() -> None:
    policy = BodyPolicy.of(2048, ["pin", "iban"])
    text, _ = policy.text({"PIN": "1234", "i_b_a_n": "DE00", "shipping": "post"})
    assert json.loads(text) == {
        "PIN": REDACTED,
        "i_b_a_n": REDACTED,
        "shipping": "post",
    }


def test_long_text_is_cut_on_a_character_boundary() -> None:
    # 10 bytes of JSON, then two-byte characters: the 13th byte would split the second.
    text, truncated = BodyPolicy.of(13).text({"title": "é" * 20})
    assert truncated
    assert text == '{"title":"é'
    assert BodyPolicy.of(12).text({"a": 1}) == ('{"a":1}', False)
    with pytest.raises(ValueError):
        BodyPolicy.of(0)


def test_values_json_cannot_show_are_recorded_by_type_only() -> None:
    class Opaque:
        def __repr__(self) -> str:
            return "opaque-secret"

    text, _ = BodyPolicy().text({"thing": Opaque()})
    assert json.loads(text) == {"thing": "<Opaque>"}
