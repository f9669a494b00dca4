"""Decisions of an Open Policy Agent server for generated routes.

One ``PolicyClient`` per process holds one pooled ``httpx.AsyncClient``, opened by
its ``lifespan`` and closed at shutdown. A route's ``RequestPolicy`` asks it over
OPA's REST Data API (``POST /v1/data/<decision>``) whether the user may act, and
over its Compile API (``POST /v1/compile``, the object unknown) which rows a list
may show; it remembers each answer, so no decision is asked twice in one request.
OPA unreachable, slow or answering an error: 503 when failing closed (the
default), allowed when failing open. See docs/authorization.md.
"""

import asyncio
import json
import logging
import math
import os
import re
import uuid
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi import HTTPException, status
from fastapi.encoders import jsonable_encoder
from sqlalchemy import ColumnElement, inspect, true

from .opa_filter import UnsupportedPolicy, row_condition

logger = logging.getLogger(__name__)

# What ``Retry-After`` says when the policy server could not decide.
RETRY_AFTER_SECONDS = 5


class PolicyUnavailable(Exception):
    """OPA did not answer in time, or not with a decision."""


@dataclass(frozen=True)
class RowPolicy:
    """The rows of a resource a policy may show: its OPA type and its model."""

    resource: str
    """The resource type OPA sees as ``input.resource``."""
    action: str
    """The action the rows must be allowed for (the resource's ``get``)."""
    model: type
    """The mapped class whose columns ``input.object.<field>`` names."""

    @property
    def columns(self) -> dict[str, ColumnElement[Any]]:
        """The model's columns by attribute name: a row's fields as OPA sees them."""
        attributes = inspect(self.model).column_attrs
        return {
            attribute.key: getattr(self.model, attribute.key)
            for attribute in attributes
        }


_UUID = re.compile(
    r"\{?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}?"
)


def policy_claims(claims: Mapping[str, Any]) -> dict[str, Any]:
    """A token's *claims* as every decision and row filter of a request reads them.

    Normalized once, so a decision about a row and a list's SQL compare the same
    values: a UUID (any case, in braces or not) in its canonical text, the form rows'
    UUID columns take in ``input.object``. A number JSON cannot carry (NaN, Infinity)
    makes the token unusable: 401.
    """
    return {key: _claim(value) for key, value in claims.items()}


def _claim(value: Any) -> Any:
    if isinstance(value, str) and _UUID.fullmatch(value):
        return str(uuid.UUID(value))
    if isinstance(value, float) and not math.isfinite(value):
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            detail="The access token is invalid",
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        )
    if isinstance(value, list):
        return [_claim(item) for item in value]
    if isinstance(value, dict):
        return {key: _claim(item) for key, item in value.items()}
    return value


def object_fields(row: Any) -> dict[str, Any]:
    """The column values of a loaded *row*, JSON-safe (UUIDs and dates as text)."""
    attributes = inspect(type(row)).column_attrs
    return jsonable_encoder(
        {attribute.key: getattr(row, attribute.key) for attribute in attributes}
    )


class PolicyClient:
    """The OPA server at the URL in ``url_env``, asked about ``decision``."""

    def __init__(
        self,
        *,
        url_env: str,
        decision: str,
        timeout_seconds: float,
        fail_open: bool,
    ) -> None:
        self.url_env = url_env
        self.decision = decision.strip("/")
        self.timeout_seconds = timeout_seconds
        self.fail_open = fail_open
        self.row_policies: list[RowPolicy] = []
        self._http: httpx.AsyncClient | None = None
        self._users = 0

    def rows(self, row_policy: RowPolicy) -> RowPolicy:
        """Register *row_policy*: startup compiles it to check the policy's shape."""
        self.row_policies.append(row_policy)
        return row_policy

    @asynccontextmanager
    async def lifespan(self, _app: Any) -> AsyncIterator[None]:
        """Open the HTTP client and check the row policies; close it at shutdown.

        Reentrant: however many routers include it, one client serves the process.
        """
        if self._users == 0:
            url = os.environ.get(self.url_env, "")
            if not url:
                raise RuntimeError(
                    f"{self.url_env} is not set: it must hold the URL of the OPA "
                    "server that authorizes requests, like http://127.0.0.1:8181"
                )
            self._http = httpx.AsyncClient(
                base_url=url.rstrip("/"), timeout=self.timeout_seconds
            )
            await self._check_row_policies()
        self._users += 1
        try:
            yield
        finally:
            self._users -= 1
            if self._users == 0 and self._http is not None:
                await self._http.aclose()
                self._http = None

    async def _check_row_policies(self) -> None:
        """Refuse to start when a list's policy is outside what row filters translate.

        A representative subject (no groups, no claims) is asked once per resource;
        an unreachable OPA only logs a warning, as OPA may start after the app.
        """
        for row_policy in self.row_policies:
            subject = {"id": "", "groups": [], "claims": {}}
            try:
                result = await self.compile(
                    _input(subject, row_policy.action, row_policy.resource)
                )
            except PolicyUnavailable as error:
                logger.warning(
                    "could not check the row policy of %s at startup: %s",
                    row_policy.resource,
                    error,
                )
                continue
            try:
                row_condition(result, row_policy.columns)
            except UnsupportedPolicy as error:
                what = f"the OPA policy {self.decision}"
                raise RuntimeError(
                    f"{what} cannot filter {row_policy.resource} rows: {error}"
                ) from error

    async def _post(self, path: str, body: Mapping[str, Any]) -> dict[str, Any]:
        if self._http is None:
            raise RuntimeError(
                "the OPA client is closed: include the policy router in the application"
            )
        try:
            async with asyncio.timeout(self.timeout_seconds):
                response = await self._http.post(path, json=body)
        except (TimeoutError, httpx.HTTPError) as error:
            raise PolicyUnavailable(
                f"{path}: {type(error).__name__} {error}".rstrip()
            ) from error
        if response.status_code != status.HTTP_200_OK:
            raise PolicyUnavailable(
                f"{path}: HTTP {response.status_code} {response.text[:200]}"
            )
        try:
            answer = response.json()
        except json.JSONDecodeError as error:
            raise PolicyUnavailable(f"{path}: not JSON") from error
        if not isinstance(answer, dict):
            raise PolicyUnavailable(f"{path}: not a JSON object")
        return answer

    async def decide(self, policy_input: Mapping[str, Any]) -> bool:
        """Whether the decision is ``true`` for *policy_input* (undefined: no)."""
        answer = await self._post(f"/v1/data/{self.decision}", {"input": policy_input})
        return answer.get("result") is True

    async def compile(self, policy_input: Mapping[str, Any]) -> dict[str, Any]:
        """The partial evaluation of the decision with ``input.object`` unknown."""
        query = "data." + ".".join(self.decision.split("/")) + " == true"
        body = {"query": query, "input": policy_input, "unknowns": ["input.object"]}
        answer = await self._post("/v1/compile", body)
        result = answer.get("result", {})
        if not isinstance(result, dict):
            raise PolicyUnavailable("/v1/compile: the result is not an object")
        queries = result.get("queries", [])
        if not isinstance(queries, list) or not all(
            isinstance(query, list)
            and all(isinstance(expression, dict) for expression in query)
            for query in queries
        ):
            raise PolicyUnavailable(
                "/v1/compile: the queries are not a list of lists of expressions"
            )
        return result


def _input(
    subject: Mapping[str, Any], action: str, resource: str, row: Any = None
) -> dict[str, Any]:
    policy_input: dict[str, Any] = {
        "subject": subject,
        "action": action,
        "resource": resource,
    }
    if row is not None:
        policy_input["object"] = object_fields(row)
    return policy_input


def policy_unavailable() -> HTTPException:
    """The 503 of a route whose policy server could not decide."""
    return HTTPException(
        status.HTTP_503_SERVICE_UNAVAILABLE,
        detail="The authorization policy could not be checked; try again later",
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


@dataclass
class RequestPolicy:
    """The decisions of one request for one *subject*, each asked at most once."""

    client: PolicyClient
    subject: Mapping[str, Any]
    _answers: dict[str, Any] = field(default_factory=dict)

    async def allows(self, action: str, resource: str, row: Any = None) -> bool:
        """Whether the policy lets the subject do *action* on *resource* (*row*)."""
        policy_input = _input(self.subject, action, resource, row)
        key = json.dumps(policy_input, sort_keys=True)
        if key not in self._answers:
            try:
                self._answers[key] = await self.client.decide(policy_input)
            except PolicyUnavailable as error:
                self._answers[key] = self._failed(error)
        return self._answers[key]

    async def require(self, action: str, resource: str, row: Any = None) -> None:
        """Answer 403 unless the policy allows *action* (on *row*)."""
        if not await self.allows(action, resource, row):
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                detail="The authorization policy does not allow this",
            )

    async def visible(self, row_policy: RowPolicy) -> ColumnElement[bool]:
        """The rows of *row_policy* the subject may see, as a list's condition."""
        policy_input = _input(self.subject, row_policy.action, row_policy.resource)
        key = "rows:" + json.dumps(policy_input, sort_keys=True)
        if key not in self._answers:
            try:
                result = await self.client.compile(policy_input)
            except PolicyUnavailable as error:
                self._failed(error)
                self._answers[key] = true()
            else:
                try:
                    self._answers[key] = row_condition(result, row_policy.columns)
                except UnsupportedPolicy as error:
                    logger.error(
                        "OPA policy %s cannot filter %s rows: %s",
                        self.client.decision,
                        row_policy.resource,
                        error,
                    )
                    raise policy_unavailable() from error
        return self._answers[key]

    def _failed(self, error: PolicyUnavailable) -> bool:
        """Allow when failing open; else answer 503."""
        if self.client.fail_open:
            logger.warning("OPA could not decide, allowing (fail open): %s", error)
            return True
        logger.error("OPA could not decide, answering 503 (fail closed): %s", error)
        raise policy_unavailable() from error
