"""Compares the Python API's types and requests with schemas of an OpenAPI document.

Each function appends what does not match to `problems` (one readable line each) so a test can
show every difference at once. Understands what the served document uses: `$ref`, `allOf`,
`anyOf`/`oneOf`, `type` as a list with "null", `nullable`, `const` and `enum`.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from datetime import datetime
from typing import Any, Literal, Union

from svc._decode import hints_of, json_keys, literal_fields

Schema = dict[str, Any]

JSON_TYPES = {str: {"string"}, int: {"integer"}, float: {"number", "integer"}, bool: {"boolean"}}


class Document:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc

    def operation(self, method: str, route: str) -> dict[str, Any] | None:
        paths = self.doc["paths"]
        for path in (route, route + "/", route.rstrip("/")):
            if path in paths and method.lower() in paths[path]:
                return typing.cast(dict[str, Any], paths[path][method.lower()])
        return None

    def operations(self) -> set[tuple[str, str]]:
        methods = {"get", "put", "post", "delete", "patch"}
        return {(method.upper(), path.rstrip("/") or "/") for path, item in self.doc["paths"].items() for method in item if method in methods}

    def resolve(self, schema: Schema) -> Schema:
        while "$ref" in schema:
            target: Any = self.doc
            for part in schema["$ref"].lstrip("#/").split("/"):
                target = target[part]
            schema = target
        if "allOf" in schema:
            merged: Schema = {k: v for k, v in schema.items() if k != "allOf"}
            for part in schema["allOf"]:
                part = self.resolve(part)
                merged.setdefault("properties", {}).update(part.get("properties", {}))
                merged["required"] = sorted(set(merged.get("required", [])) | set(part.get("required", [])))
                merged.setdefault("type", part.get("type"))
            return merged
        return schema

    def alternatives(self, schema: Schema) -> list[Schema]:
        """The schema's non-null alternatives (one unless it is anyOf/oneOf)."""
        schema = self.resolve(schema)
        options = schema.get("anyOf") or schema.get("oneOf")
        if options:
            return [alternative for option in options for alternative in self.alternatives(option)]
        return [] if schema.get("type") == "null" else [schema]

    def allows_null(self, schema: Schema) -> bool:
        schema = self.resolve(schema)
        if schema.get("nullable") or schema.get("type") == "null" or "null" in (schema.get("type") or []):
            return True
        return any(self.allows_null(option) for option in schema.get("anyOf", []) + schema.get("oneOf", []))


def json_types(schema: Schema) -> set[str]:
    declared = schema.get("type")
    found = set(declared) if isinstance(declared, list) else {declared} if declared else set()
    if "const" in schema:
        found.add({str: "string", bool: "boolean", int: "integer", float: "number"}[type(schema["const"])])
    return found - {"null", None}


def enum_values(schema: Schema) -> set[Any] | None:
    if "const" in schema:
        return {schema["const"]}
    return set(v for v in schema["enum"] if v is not None) if "enum" in schema else None


def without_none(tp: Any) -> tuple[Any, bool]:
    """(`tp` without None, whether None was allowed)."""
    if typing.get_origin(tp) in (Union, types.UnionType) and type(None) in typing.get_args(tp):
        rest = tuple(arg for arg in typing.get_args(tp) if arg is not type(None))
        return (rest[0] if len(rest) == 1 else Union[rest]), True  # noqa: UP007
    return tp, False


def check_type(doc: Document, tp: Any, schema: Schema, where: str, problems: list[str]) -> None:
    """Whether values the document allows decode into the Python type `tp` (and only those)."""
    tp, _ = without_none(tp)
    if tp is Any:
        return
    options = doc.alternatives(schema)
    if typing.get_origin(tp) in (Union, types.UnionType):
        check_union(doc, tp, options, where, problems)
        return
    if len(options) != 1:
        problems.append(f"{where}: the document has {len(options)} alternatives, the Python type {tp} one")
        return
    (schema,) = options
    kinds = json_types(schema)
    if typing.get_origin(tp) is Literal:
        wanted = enum_values(schema)
        if wanted != set(typing.get_args(tp)):
            problems.append(f"{where}: Python allows {sorted(typing.get_args(tp))}, the document {sorted(wanted) if wanted else schema}")
    elif typing.get_origin(tp) is list:
        if kinds != {"array"}:
            problems.append(f"{where}: a list in Python, {kinds or schema} in the document")
        else:
            check_type(doc, typing.get_args(tp)[0], schema.get("items", {}), f"{where}[]", problems)
    elif typing.get_origin(tp) is dict:
        if kinds != {"object"}:
            problems.append(f"{where}: a dict in Python, {kinds or schema} in the document")
    elif dataclasses.is_dataclass(tp):
        if kinds != {"object"}:
            problems.append(f"{where}: {tp.__name__} is an object, the document says {kinds or schema}")
        else:
            check_dataclass(doc, tp, schema, where, problems)
    elif tp is datetime:
        if kinds != {"string"} or schema.get("format") not in (None, "date-time"):
            problems.append(f"{where}: a datetime in Python, {schema} in the document")
    elif tp in JSON_TYPES:
        if not kinds or not kinds <= JSON_TYPES[tp]:
            problems.append(f"{where}: {tp.__name__} in Python, {sorted(kinds) or schema} in the document")
    else:
        problems.append(f"{where}: no rule to compare the Python type {tp}")


def check_union(doc: Document, tp: Any, options: list[Schema], where: str, problems: list[str]) -> None:
    """A union of dataclasses against anyOf/oneOf objects, matched by their constant (discriminator) fields."""
    classes = [arg for arg in typing.get_args(tp) if arg is not type(None)]

    def discriminators(schema: Schema) -> dict[str, set[Any]]:
        properties = doc.resolve(schema).get("properties", {})
        return {key: values for key, prop in properties.items() if (values := enum_values(doc.resolve(prop))) is not None}

    unmatched = list(options)
    for cls in classes:
        fixed = {key: set(values) for key, values in literal_fields(cls).items()}
        matches = [option for option in unmatched if all(discriminators(option).get(key) == values for key, values in fixed.items())]
        if len(matches) != 1:
            problems.append(f"{where}: {cls.__name__} matches {len(matches)} of the document's alternatives")
            continue
        unmatched.remove(matches[0])
        check_dataclass(doc, cls, matches[0], f"{where}<{cls.__name__}>", problems)
    for option in unmatched:
        problems.append(f"{where}: no Python class for the document's alternative {sorted(doc.resolve(option).get('properties', {}))}")


def check_dataclass(doc: Document, cls: type, schema: Schema, where: str, problems: list[str]) -> None:
    schema = doc.resolve(schema)
    properties: dict[str, Schema] = schema.get("properties", {})
    required = set(schema.get("required", []))
    hints = hints_of(cls)
    covered = set()
    for field in dataclasses.fields(cls):
        key = next((k for k in json_keys(field) if k in properties), None)
        if key is None:
            problems.append(f"{where}.{field.name}: no field {' or '.join(json_keys(field))} in the document")
            continue
        covered.add(key)
        tp, optional = without_none(hints[field.name])
        prop = properties[key]
        if not optional and tp is not Any and (key not in required or doc.allows_null(prop)):
            problems.append(f"{where}.{key}: required and never null in Python, {'nullable' if key in required else 'optional'} in the document")
        check_type(doc, tp, prop, f"{where}.{key}", problems)
    for key in sorted(required - covered):
        problems.append(f"{where}: the document's required field {key} is missing in {cls.__name__}")


def check_request_value(doc: Document, value: Any, schema: Schema, where: str, problems: list[str], complete: bool, not_sent: set[str] = set()) -> None:
    """A value the Python API sends: allowed by the schema; with `complete`, it also sets every property the schema has."""
    options = doc.alternatives(schema)
    schema = options[0] if len(options) == 1 else {}
    kinds = json_types(schema)
    if isinstance(value, dict):
        if kinds != {"object"}:
            problems.append(f"{where}: sent an object, the document wants {kinds or schema}")
            return
        properties = schema.get("properties", {})
        if "patternProperties" in schema or isinstance(schema.get("additionalProperties"), dict):
            return  # a map (typebox's Record): any key
        for key in sorted(set(value) - set(properties)):
            problems.append(f"{where}.{key}: sent, but the document has no such field")
        for key in sorted(set(schema.get("required", [])) - set(value)):
            problems.append(f"{where}.{key}: required by the document, never sent")
        if complete:
            for key in sorted(set(properties) - set(value) - not_sent):
                problems.append(f"{where}.{key}: in the document, but no option of the Python API sends it")
        for key in sorted(set(value) & set(properties)):
            check_request_value(doc, value[key], properties[key], f"{where}.{key}", problems, complete)
    elif isinstance(value, list):
        if kinds != {"array"}:
            problems.append(f"{where}: sent a list, the document wants {kinds or schema}")
        for item in value[:1]:
            check_request_value(doc, item, schema.get("items", {}), f"{where}[]", problems, complete)
    else:
        sent = {bool: "boolean", int: "integer", float: "number", str: "string"}[type(value)]
        if sent not in kinds and not (sent == "integer" and "number" in kinds):
            problems.append(f"{where}: sent {sent}, the document wants {kinds or schema}")
        values = enum_values(schema)
        if values is not None and value not in values:
            problems.append(f"{where}: sent {value!r}, the document allows {sorted(values)}")
