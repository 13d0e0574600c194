"""Whether an answer of the JSON API is one its OpenAPI schema declares: an error's status
among the route's documented answers, and its body of the documented shape."""

from __future__ import annotations

import json
from typing import Any

import jsonschema


def resolved(schema: Any, document: dict[str, Any]) -> Any:
    """``schema`` with every ``$ref`` into ``document`` replaced by what it points to."""
    if isinstance(schema, dict):
        if "$ref" in schema:
            target: Any = document
            for part in schema["$ref"].removeprefix("#/").split("/"):
                target = target[part]
            return resolved(target, document)
        return {k: resolved(v, document) for k, v in schema.items()}
    if isinstance(schema, list):
        return [resolved(v, document) for v in schema]
    return schema


def undeclared(openapi: dict[str, Any], method: str, template: str, response: Any) -> str | None:
    """What is wrong with ``response`` (to ``method`` on the path ``template``, as the schema
    names it) by the schema: None when it is an answer the schema declares. Successful
    answers and paths outside the schema are not judged here."""
    status = response.status_code
    operations = openapi["paths"].get(template)
    if status < 400 or operations is None:
        return None
    operation = operations.get(method.lower())
    if operation is None:  # a method the path does not take: every operation declares 405
        if status != 405:
            return f"{method} {template}: {status}, though the path does not take {method}"
        operation = next(iter(operations.values()))
    documented = operation["responses"].get(str(status))
    if documented is None:
        return f"{method} {template}: {status} is not declared ({response.text[:200]})"
    try:
        body = response.json()
    except json.JSONDecodeError:
        return f"{method} {template}: the {status} answer is not JSON"
    schema = resolved(documented["content"]["application/json"]["schema"], openapi)
    try:
        jsonschema.validate(body, schema)
    except jsonschema.ValidationError as exc:
        return f"{method} {template}: the {status} body is not as declared: {exc.message}"
    for header in documented.get("headers", {}):
        if header.lower() not in response.headers:
            return f"{method} {template}: the {status} answer has no {header} header"
    return None
