"""Frozen values to plain data and back: dicts, lists, strings, numbers, None.

:func:`to_plain` turns dataclasses, enums, tuples and mappings into what JSON
holds; :func:`from_plain` rebuilds the typed value from the type hints. A
union of dataclasses is told apart by its field names (``GuessExpansion``
and ``ClaimExpansion`` have different fields), so the plain form carries no
type tags. Used by views, rule sets and saved games.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
from enum import Enum
from typing import Any, Union, get_args, get_origin, get_type_hints


_SCALARS = frozenset({str, int, float, bool, type(None)})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # a dataclass's field names, looked up once per class


def to_plain(value: Any) -> Any:
    """``value`` as plain data (mapping keys become strings, as in JSON).

    Called for every view sent to every seat, so the common cases come first
    and a dataclass's fields are looked up once per class (a generic walk with
    ``dataclasses.fields`` per value took 0.5 ms of a view's 0.6 ms of JSON:
    issue 29, item 2).
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    names = _FIELD_NAMES.get(kind)
    if names is not None:
        return {name: to_plain(getattr(value, name)) for name in names}
    if kind is list or kind is tuple:
        return [to_plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(value))
        return to_plain(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, collections.abc.Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    return value


def from_plain(tp: Any, value: Any) -> Any:
    """The value of type ``tp`` that :func:`to_plain` gave ``value`` for.

    Raises:
        ValueError: ``value`` does not have the shape ``tp`` describes (and
            whatever the dataclass itself raises for bad contents).
    """
    try:
        return _build(tp, value)
    except (TypeError, KeyError, AttributeError, StopIteration) as error:
        raise ValueError(f"not a {getattr(tp, '__name__', tp)}: {error!r}") from None


def _build(tp: Any, value: Any) -> Any:
    origin, args = get_origin(tp), get_args(tp)
    if origin in (Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        if len(options) > 1 and all(dataclasses.is_dataclass(a) for a in options):
            keys = set(value)
            chosen = next(a for a in options if {f.name for f in dataclasses.fields(a)} == keys)
            return _build(chosen, value)
        return _build(options[0], value)
    if dataclasses.is_dataclass(tp):
        if not isinstance(value, dict):
            raise TypeError(f"{tp.__name__} needs a mapping, got {type(value).__name__}")
        hints = get_type_hints(tp)
        return tp(**{f.name: _build(hints[f.name], value[f.name]) for f in dataclasses.fields(tp)
                     if f.name in value or (f.default is dataclasses.MISSING
                                            and f.default_factory is dataclasses.MISSING)})
    if isinstance(tp, type) and issubclass(tp, Enum):
        return tp(value)
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise TypeError(f"a list was expected, got {type(value).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], v) for v in value)
        return tuple(_build(a, v) for a, v in zip(args, value, strict=True))
    if origin in (dict, collections.abc.Mapping):
        key_type, value_type = args if args else (str, Any)
        return {(int(k) if key_type is int else k): _build(value_type, v) for k, v in value.items()}
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value
