"""The 403 of generated routes and groups read from a claim."""

import pytest
from fastapi import HTTPException
from runtime.authz import forbidden, groups_in_claim, require_membership


def test_forbidden_is_a_403_with_a_detail() -> None:
    error = forbidden()
    assert error.status_code == 403
    assert error.detail == "You are not allowed to do this"


@pytest.mark.parametrize(
    ("value", "groups"),
    [
        (["editor", "admin"], {"editor", "admin"}),
        ("editor", {"editor"}),
        (["editor", 3, None, {"x": 1}], {"editor"}),
        (None, set()),
        (42, set()),
        ({"editor": True}, set()),
    ],
)
def test_groups_in_claim_keeps_strings_only(value: object, groups: set[str]) -> None:
    assert groups_in_claim({"roles": value}, "roles") == groups


def test_a_missing_claim_means_no_groups() -> None:
    assert groups_in_claim({"sub": "ada"}, "roles") == frozenset()


def test_membership_of_one_allowed_group_is_enough() -> None:
    require_membership({"reader", "editor"}, frozenset({"editor", "admin"}))


def test_no_allowed_group_is_a_403_naming_them() -> None:
    with pytest.raises(HTTPException) as raised:
        require_membership({"reader"}, frozenset({"editor", "admin"}))
    assert raised.value.status_code == 403
    assert (
        raised.value.detail == "Only members of these groups may do this: admin, editor"
    )
