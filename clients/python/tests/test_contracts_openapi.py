"""The Python API cannot drift from the served OpenAPI document (`/api/openapi.json` of the running app):
every call's answer type, request body and query, and the error body, are compared with its schemas."""

from __future__ import annotations

import inspect
import os
import typing
from collections.abc import Sequence
from typing import Any, Literal, Union

import httpx
import pytest
from conftest import App
from openapi_check import Document, check_request_value, check_type

from svc import _api as api
from svc.contracts import ErrorBody

#: Properties of a request body the Python API leaves out on purpose, and why.
NOT_SENT = {
    # The profile is named by the path; its name and schema cannot change.
    ("PUT", "/api/profiles/{name}"): {"name", "schema"},
}


@pytest.fixture(scope="module")
def document(app: App) -> Document:
    answer = httpx.get(f"{app.url}/api/openapi.json", headers={"Authorization": f"Bearer {app.token}"})
    answer.raise_for_status()
    return Document(answer.json())


def sample(tp: Any) -> Any:
    """A value of the type `tp` (the first choice where there are several; every key of a TypedDict)."""
    origin = typing.get_origin(tp)
    if origin is Literal:
        return typing.get_args(tp)[0]
    if origin in (Union, typing.get_origin(int | None)):
        return sample(next(arg for arg in typing.get_args(tp) if arg is not type(None)))
    if typing.is_typeddict(tp):
        return {key: sample(value) for key, value in typing.get_type_hints(tp).items()}
    if origin is dict:
        return {"x": sample(typing.get_args(tp)[1])}
    if origin in (list, Sequence) or tp in (list, Sequence):
        return [sample(typing.get_args(tp)[0])]
    return {str: "x", int: 1, bool: True, float: 0.5, os.PathLike: "x"}[tp]


def every_call() -> list[api.Call[Any]]:
    """Each call of the Python API with every argument given."""
    calls = []
    for builder in api.CALLS:
        hints = typing.get_type_hints(builder)
        arguments = {name: sample(hints[name]) for name in inspect.signature(builder).parameters}
        calls.append(builder(**arguments))
    return calls


def test_every_operation_of_the_document_has_a_call(document: Document) -> None:
    reached = {(call.method, call.route) for call in every_call()}
    assert document.operations() - reached == set()


def test_answers_decode_into_the_python_types(document: Document) -> None:
    problems: list[str] = []
    for call in every_call():
        operation = document.operation(call.method, call.route)
        if operation is None:
            problems.append(f"{call.method} {call.route}: not in the document")
            continue
        responses = operation.get("responses", {})
        statuses = [status for status in responses if status.startswith("2")] + [str(status) for status in call.also_ok]
        checked = 0
        for status in statuses:
            schema = responses.get(status, {}).get("content", {}).get("application/json", {}).get("schema")
            if call.returns is None:
                if schema is not None:
                    problems.append(f"{call.method} {call.route} {status}: answers JSON, the Python API expects no content")
            elif schema is not None:
                check_type(document, call.returns, schema, f"{call.method} {call.route} {status}", problems)
                checked += 1
        if call.returns not in (None, str) and checked == 0:
            problems.append(f"{call.method} {call.route}: the document gives no JSON answer for {call.returns}")
    assert not problems, "\n".join(problems)


def test_requests_send_only_and_every_field_of_the_document(document: Document) -> None:
    problems: list[str] = []
    for call in every_call():
        operation = document.operation(call.method, call.route) or {}
        where = f"{call.method} {call.route}"
        body_schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
        if call.body is not None:
            if body_schema is None:
                problems.append(f"{where}: sends a body, the document takes none")
            else:
                check_request_value(document, call.body, body_schema, f"{where} body", problems, complete=True, not_sent=NOT_SENT.get((call.method, call.route), set()))
        elif body_schema is not None and operation["requestBody"].get("required"):
            problems.append(f"{where}: the document requires a body, none is sent")
        parameters = {p["name"]: p.get("schema", {}) for p in operation.get("parameters", []) if p["in"] == "query"}
        for name in sorted(set(call.query) ^ set(parameters)):
            problems.append(f"{where}: query parameter {name} is {'sent but not in the document' if name in call.query else 'in the document but never sent'}")
        for name in sorted(set(call.query) & set(parameters)):
            check_query(document, call.query[name], parameters[name], f"{where} ?{name}", problems)
    assert not problems, "\n".join(problems)


def check_query(document: Document, value: str, schema: dict[str, Any], where: str, problems: list[str]) -> None:
    options = document.alternatives(schema)
    kinds = {kind for option in options for kind in ([option["type"]] if isinstance(option.get("type"), str) else option.get("type", []))}
    values = {v for option in options for v in option.get("enum", [])}
    if "boolean" in kinds and value not in ("true", "false"):
        problems.append(f"{where}: sent {value!r} for a boolean")
    if kinds == {"integer"} and not value.isdigit():
        problems.append(f"{where}: sent {value!r} for an integer")
    if values and value not in values:
        problems.append(f"{where}: sent {value!r}, the document allows {sorted(values)}")


def test_every_error_answer_is_the_error_body(document: Document) -> None:
    problems: list[str] = []
    for (method, path) in sorted(document.operations()):
        for status, response in (document.operation(method, path) or {}).get("responses", {}).items():
            schema = response.get("content", {}).get("application/json", {}).get("schema")
            if status[0] in "45" and schema is not None and not (path == "/api/health" and status == "503"):
                check_type(document, ErrorBody, schema, f"{method} {path} {status}", problems)
    assert not problems, "\n".join(problems)


def test_the_checks_see_a_difference() -> None:
    """The comparison itself: a field missing from the document, a wrong type, a missing required field."""
    from dataclasses import dataclass

    from openapi_check import check_dataclass

    @dataclass
    class Thing:
        count: int
        label: str | None = None

    document = Document({"paths": {}})
    problems: list[str] = []
    check_dataclass(document, Thing, {"type": "object", "required": ["count", "size"], "properties": {"count": {"type": "string"}, "size": {"type": "integer"}}}, "Thing", problems)
    assert problems == [
        "Thing.count: int in Python, ['string'] in the document",
        "Thing.label: no field label in the document",
        "Thing: the document's required field size is missing in Thing",
    ]
