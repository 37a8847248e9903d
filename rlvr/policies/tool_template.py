"""A tool-calling chat template for local models whose own template has none (SmolLM2).

SmolLM2's template renders role and content only: TRL's agent path refuses it ("does not
support tool calling"), and a conversation with `tool_calls` or `tool` messages loses them.
Its vocabulary is ChatML's (`<|im_start|>`, `<|im_end|>`), the format Qwen2.5's tool-calling
template extends: the tools' JSON schemas in the system turn, calls as `<tool_call>` JSON
blocks in the assistant turn, results as `<tool_response>` blocks in a user turn. Messages of
role and content with a system message first render exactly as under SmolLM2's own template,
so nothing the model learned changes. rlvr takes the template as TRL ships it (byte-identical
to Qwen2.5's), so TRL recognises it and parses the model's calls with its Qwen parser; rlvr's
own loop reads the same `<tool_call>` blocks.
"""

from __future__ import annotations

import sys
from importlib.resources import files
from typing import Any

from rlvr.errors import RlvrError

CHATML_TOKENS = ("<|im_start|>", "<|im_end|>")
TEMPLATE_NAME = "qwen2_5.jinja"
_SENTINELS = ("tool_name_7c1e", "arg_key_52ab", "arg_val_9d0f", "tool_result_e3b4")


def chatml_tool_template() -> str:
    """Qwen2.5's tool-calling ChatML template, as TRL ships it."""
    return (files("trl") / "chat_templates" / TEMPLATE_NAME).read_text(encoding="utf-8")


def renders_tool_calls(tokenizer: Any) -> bool:
    """Whether the tokenizer's chat template renders a call's name and arguments and a tool
    message's content (a template that drops any of them cannot carry an agent's episode)."""
    if not getattr(tokenizer, "chat_template", None):
        return False
    name, key, value, result = _SENTINELS
    calls = [{"type": "function", "function": {"name": name, "arguments": {key: value}}}]
    messages = [{"role": "user", "content": "hi"},
                {"role": "assistant", "content": "", "tool_calls": calls},
                {"role": "tool", "name": name, "content": result}]  # fmt: skip
    try:
        text = str(tokenizer.apply_chat_template(messages, tokenize=False))
    except Exception:  # a template that raises on tool messages cannot render them
        return False
    return all(s in text for s in _SENTINELS)


def with_tool_template(tokenizer: Any) -> bool:
    """Give `tokenizer` the ChatML tool template when its own renders no tool calls; True when
    it was changed. A vocabulary without ChatML's tokens gets no borrowed template: raises."""
    if renders_tool_calls(tokenizer):
        return False
    vocab = tokenizer.get_vocab()
    if not all(t in vocab for t in CHATML_TOKENS):
        raise RlvrError(
            "the model's chat template renders no tool calls, and its vocabulary has no ChatML "
            "tokens (<|im_start|>, <|im_end|>) for rlvr's tool template",
            "set tokenizer.chat_template to a tool-calling template written for this model",
        )
    tokenizer.chat_template = chatml_tool_template()
    return True


def adopt_tool_template(tokenizer: Any) -> bool:
    """For rlvr's episode loop and distillation: True when observations go to the model as
    `tool` messages through the template (it renders them, or had ChatML's tokens and now has
    the tool template: said once on stderr); False for a model kept on plain-text observations
    (no template, or one without tool calls and without ChatML's tokens, like the tiny models)."""
    if renders_tool_calls(tokenizer):
        return True
    if not getattr(tokenizer, "chat_template", None):
        return False
    try:
        with_tool_template(tokenizer)
    except RlvrError:
        return False
    print(
        "note: the model's chat template renders no tool calls; its ChatML vocabulary now "
        "uses the tool-calling template (rlvr.policies.tool_template)",
        file=sys.stderr,
    )
    return True
