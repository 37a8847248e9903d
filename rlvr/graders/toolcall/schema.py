"""Turn offered function schemas (BFCL or OpenAI style) into strict JSON Schema validators.

Validation is JSON Schema Draft 2020-12 with a FormatChecker (so `"format": "date"` is
enforced), after three decisions a reader would otherwise question:

- BFCL's non-standard types map to standard ones: `dict` -> object, `float` -> number,
  `tuple` -> array, `any` -> no type constraint. Any other unknown type is a task defect.
- `integer` means a JSON number written without a fraction: `1.0` is NOT an integer (Draft
  2020-12 would accept it, BFCL's checker and the Python function receiving a float do not),
  and `true` is not an integer either. `number` accepts integers, since JSON has one number
  type and a float parameter called with `5` receives `5.0` in every JSON-based runtime.
- Every object schema that lists `properties` forbids other keys (`additionalProperties:
  false`) unless it says otherwise: an argument the function does not declare is a wrong call,
  not a harmless extra. Objects without `properties` stay free-form.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

_TYPE_MAP = {"dict": "object", "float": "number", "tuple": "array"}
_STANDARD = {"object", "number", "array", "string", "integer", "boolean", "null"}
_SUBSCHEMA_KEYS = ("items", "additionalProperties", "not", "contains", "if", "then", "else")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


class TaskSchemaError(ValueError):
    """The task's tools or expected calls are malformed (a task defect, not a model error)."""


def _is_strict_integer(_checker: Any, value: Any) -> bool:
    return type(value) is int


_TYPE_CHECKER = Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_strict_integer)
StrictValidator = jsonschema.validators.extend(Draft202012Validator, type_checker=_TYPE_CHECKER)


def _map_type(kind: Any, where: str) -> Any:
    if isinstance(kind, list):
        return [_map_type(k, where) for k in kind]
    if not isinstance(kind, str):
        raise TaskSchemaError(f"{where}: 'type' must be a string, got {kind!r}")
    mapped = _TYPE_MAP.get(kind, kind)
    if mapped not in _STANDARD:
        raise TaskSchemaError(
            f"{where}: unknown type {kind!r}; use a JSON Schema type or one of BFCL's "
            "dict, float, tuple, any"
        )
    return mapped


def to_json_schema(schema: Any, where: str) -> dict[str, Any]:
    """A standard JSON Schema for one BFCL parameter schema (recursively)."""
    if not isinstance(schema, dict):
        raise TaskSchemaError(f"{where}: a schema must be an object, got {schema!r}")
    out = dict(schema)
    kind = out.get("type")
    if kind == "any" or (isinstance(kind, list) and "any" in kind):
        del out["type"]
    elif kind is not None:
        out["type"] = _map_type(kind, where)
    if isinstance(out.get("properties"), dict):
        out["properties"] = {
            k: to_json_schema(v, f"{where}.{k}") for k, v in out["properties"].items()
        }
        out.setdefault("additionalProperties", False)
        undeclared = [r for r in out.get("required", []) if r not in out["properties"]]
        if undeclared and out["additionalProperties"] is False:
            raise TaskSchemaError(
                f"{where}: required {undeclared} not among its properties, so no call can pass"
            )
    for key in _SUBSCHEMA_KEYS:
        if isinstance(out.get(key), dict):
            out[key] = to_json_schema(out[key], f"{where}.{key}")
    for key in _SUBSCHEMA_LISTS:
        if isinstance(out.get(key), list):
            out[key] = [to_json_schema(s, f"{where}.{key}[{i}]") for i, s in enumerate(out[key])]
    return out


@dataclass(frozen=True)
class Function:
    """One offered function: its name, converted parameter schema and a ready validator."""

    name: str
    schema: dict[str, Any]
    validator: Any

    @cached_property
    def param_validators(self) -> dict[str, Any]:
        """A validator per declared top-level parameter."""
        props = self.schema.get("properties", {})
        return {
            name: StrictValidator(sub, format_checker=Draft202012Validator.FORMAT_CHECKER)
            for name, sub in props.items()
            if isinstance(sub, dict)
        }


def _function(spec: Any, index: int) -> Function:
    where = f"tools[{index}]"
    if isinstance(spec, dict) and isinstance(spec.get("function"), dict):
        spec = spec["function"]
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not spec["name"]:
        raise TaskSchemaError(f"{where}: a tool needs a non-empty string 'name', got {spec!r}")
    name = spec["name"]
    params = spec.get("parameters", {"type": "object", "properties": {}})
    schema = to_json_schema(params, f"{where} ({name}).parameters")
    if schema.get("type") != "object":
        raise TaskSchemaError(
            f"{where} ({name}).parameters: must be an object schema, got type "
            f"{schema.get('type')!r}"
        )
    try:
        StrictValidator.check_schema(schema)
    except SchemaError as e:
        msg = f"{where} ({name}).parameters: invalid JSON Schema: {e.message}"
        raise TaskSchemaError(msg) from None
    validator = StrictValidator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return Function(name=name, schema=schema, validator=validator)


@lru_cache(maxsize=512)
def _functions_cached(tools_json: str) -> dict[str, Function]:
    tools = json.loads(tools_json)
    if not isinstance(tools, list):
        raise TaskSchemaError(f"tools must be a list of function schemas, got {type(tools)}")
    out: dict[str, Function] = {}
    for i, spec in enumerate(tools):
        fn = _function(spec, i)
        if fn.name in out:
            raise TaskSchemaError(f"tools[{i}]: function {fn.name!r} is offered twice")
        out[fn.name] = fn
    return out


def functions(tools: Any) -> dict[str, Function]:
    """Offered functions by name, converted and validated once per distinct tool list."""
    if tools is None:
        raise TaskSchemaError("the task offers no tools (Task.tools is None)")
    try:
        key = json.dumps(tools, sort_keys=True)
    except (TypeError, ValueError) as e:
        raise TaskSchemaError(f"tools are not JSON-serialisable: {e}") from None
    return _functions_cached(key)
