"""The one hash of a tool's definition, and the tools a request offers (chat completions and Responses alike)."""

from __future__ import annotations

import hashlib
import json

from copilot_eval.runtime.offered_tools import OfferedTool
from copilot_eval.runtime.requests.tool_definitions import ToolDefinitionLog, definition_hash, tool_definitions_of

PARAMETERS = {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}


def test_the_hash_is_of_name_description_and_schema_in_canonical_json() -> None:
    canonical = json.dumps(
        {"description": "Look up an order.", "name": "shop-get_order", "parameters": PARAMETERS},
        sort_keys=True,
        separators=(",", ":"),
    )
    expected = hashlib.sha256(canonical.encode()).hexdigest()
    assert definition_hash("shop-get_order", "Look up an order.", PARAMETERS) == expected
    reordered = {"required": ["order_id"], "properties": {"order_id": {"type": "string"}}, "type": "object"}
    assert definition_hash("shop-get_order", "Look up an order.", reordered) == expected  # key order is no change
    assert definition_hash("shop-get_order", "Look up an order. ", PARAMETERS) != expected  # one space is
    assert OfferedTool("shop-get_order", "Look up an order.", "mcp", "shop", PARAMETERS).sha256 == expected


def test_both_wire_shapes_give_the_same_definitions() -> None:
    chat = {"tools": [{"type": "function", "function": {"name": "t", "description": "d", "parameters": PARAMETERS}}]}
    responses = {"tools": [{"type": "function", "name": "t", "description": "d", "parameters": PARAMETERS}]}
    assert tool_definitions_of(chat) == tool_definitions_of(responses)
    assert tool_definitions_of({"tools": [{"type": "web_search"}]}) == [] and tool_definitions_of("x") == []


def test_the_log_keeps_the_first_request_that_offers_tools() -> None:
    log = ToolDefinitionLog()
    log.note(b"not json")
    log.note(json.dumps({"messages": []}))
    assert log.hashes is None
    log.note(json.dumps({"tools": [{"type": "function", "name": "a", "description": "x", "parameters": None}]}))
    log.note(json.dumps({"tools": [{"type": "function", "name": "b", "description": "y", "parameters": None}]}))
    assert log.hashes == {"a": definition_hash("a", "x", None)}
