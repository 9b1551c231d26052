"""JSON → the dataclasses of `svc.contracts`, driven by their type hints.

Lenient where the API may grow (unknown fields are ignored, a new enum value is kept as it is),
strict where the client would otherwise break later (a required field missing).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
from datetime import datetime
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from .errors import SvcError


def camel(name: str) -> str:
    head, *rest = name.rstrip("_").split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def json_keys(field: dataclasses.Field[Any]) -> tuple[str, ...]:
    """The JSON names a field may have: its `json` metadata, else its camelCase then its own name."""
    if "json" in field.metadata:
        return (field.metadata["json"],)
    return tuple(dict.fromkeys((camel(field.name), field.name)))


@functools.lru_cache(maxsize=None)
def hints_of(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def parse_datetime(text: str) -> datetime:
    # fromisoformat before Python 3.11 takes neither `Z` nor fractions other than 3 or 6 digits.
    text = re.sub(r"\.(\d+)", lambda fraction: "." + fraction.group(1).ljust(6, "0")[:6], text)
    return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)


def decode(tp: Any, value: Any, where: str = "answer") -> Any:
    """`value` (parsed JSON) as the type `tp`."""
    if tp is Any or tp is None:
        return value
    if is_union(tp):
        return _decode_union(tp, value, where)
    origin = get_origin(tp)
    if origin is Literal:
        return value
    if value is None:
        raise SvcError(f"Unexpected answer from the API: {where} is null.")
    if origin is list:
        (item,) = get_args(tp) or (Any,)
        return [decode(item, v, f"{where}[{i}]") for i, v in enumerate(value)]
    if origin is dict:
        _, item = get_args(tp) or (str, Any)
        return {k: decode(item, v, f"{where}.{k}") for k, v in value.items()}
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _decode_dataclass(tp, value, where)
    if tp is datetime:
        return parse_datetime(value)
    if tp is float and isinstance(value, int):
        return float(value)
    return value


def _decode_dataclass(cls: type, value: Any, where: str) -> Any:
    if not isinstance(value, dict):
        raise SvcError(f"Unexpected answer from the API: {where} is not an object.")
    hints = hints_of(cls)
    arguments: dict[str, Any] = {}
    for field in dataclasses.fields(cls):
        key = next((k for k in json_keys(field) if k in value), None)
        if key is not None:
            arguments[field.name] = decode(hints[field.name], value[key], f"{where}.{key}")
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            if not (is_union(hints[field.name]) and type(None) in get_args(hints[field.name])):
                raise SvcError(f"Unexpected answer from the API: {where} has no field {json_keys(field)[0]}.")
            arguments[field.name] = None
    return cls(**arguments)


def literal_fields(cls: type) -> dict[str, tuple[Any, ...]]:
    """JSON key → allowed values, for the fields of `cls` typed as a Literal (a union's discriminators)."""
    found: dict[str, tuple[Any, ...]] = {}
    for field in dataclasses.fields(cls):
        tp = hints_of(cls)[field.name]
        if get_origin(tp) is Literal:
            found[json_keys(field)[0]] = get_args(tp)
    return found


def _decode_union(tp: Any, value: Any, where: str) -> Any:
    options = [arg for arg in get_args(tp) if arg is not type(None)]
    if value is None:
        if len(options) < len(get_args(tp)):
            return None
        raise SvcError(f"Unexpected answer from the API: {where} is null.")
    if len(options) == 1:
        return decode(options[0], value, where)
    for option in options:
        if dataclasses.is_dataclass(option) and isinstance(value, dict):
            literals = literal_fields(option)
            if all(value.get(key) in allowed for key, allowed in literals.items()):
                return decode(option, value, where)
    raise SvcError(f"Unexpected answer from the API: {where} matches none of {', '.join(getattr(o, '__name__', str(o)) for o in options)}.")
