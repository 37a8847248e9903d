"""The tool-calling template for SmolLM2: nothing it already renders changes, TRL accepts it and
parses its calls, and rlvr's episode loop frames tool results with the same tokens as TRL's
agent path."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from rlvr.episodes.run import EpisodeRunner, env_turn_ids
from rlvr.errors import RlvrError
from rlvr.policies.tool_template import adopt_tool_template, renders_tool_calls, with_tool_template
from rlvr.types import Observation

CHAT = [{"role": "system", "content": "You fix code."}, {"role": "user", "content": "Fix it."},
        {"role": "assistant", "content": '<tool_call>\n{"name": "bash", "arguments": '
                                         '{"command": "ls"}}\n</tool_call>'},
        {"role": "user", "content": "Thanks."}]  # fmt: skip


def smollm2_tokenizer():  # type: ignore[no-untyped-def]
    from transformers import AutoTokenizer

    from rlvr.models import resolve_model

    return AutoTokenizer.from_pretrained(resolve_model("smollm2-135m"))


@pytest.fixture(scope="module")
def smollm2():  # type: ignore[no-untyped-def]
    tokenizer = smollm2_tokenizer()
    own = tokenizer.apply_chat_template(CHAT, tokenize=False, add_generation_prompt=True)
    assert not renders_tool_calls(tokenizer)
    assert with_tool_template(tokenizer) is True
    tokenizer.own_rendering = own
    return tokenizer


def test_role_and_content_render_as_under_smollm2s_own_template(smollm2) -> None:  # type: ignore[no-untyped-def]
    again = smollm2.apply_chat_template(CHAT, tokenize=False, add_generation_prompt=True)
    assert again == smollm2.own_rendering
    assert renders_tool_calls(smollm2)
    assert with_tool_template(smollm2) is False  # already there: left alone


def test_trl_accepts_the_template_and_parses_the_models_calls(smollm2) -> None:  # type: ignore[no-untyped-def]
    from trl.chat_template_utils import add_response_schema, supports_tool_calling

    assert supports_tool_calling(smollm2)
    add_response_schema(smollm2)
    call_json = '{"name": "bash", "arguments": {"command": "ls -la"}}'
    text = f"<tool_call>\n{call_json}\n</tool_call><|im_end|>"
    parsed = smollm2.parse_response(text, prefix="")
    [call] = parsed["tool_calls"]
    assert call["function"] == {"name": "bash", "arguments": {"command": "ls -la"}}


def test_tool_results_take_the_same_tokens_as_in_trls_agent_path(smollm2) -> None:  # type: ignore[no-untyped-def]
    from trl import GRPOTrainer

    obs = Observation(tool="bash", content="total 0\nexit code 0")
    message = EpisodeRunner.message(obs, tool_role=True)
    before = CHAT[:3]
    ours = env_turn_ids(smollm2, before, [*before, message])
    trl_side = SimpleNamespace(processing_class=smollm2, chat_template=None, _is_vlm=False,
                               _tokenizer=smollm2, chat_template_kwargs={})  # fmt: skip
    theirs = GRPOTrainer._get_tool_suffix_ids(trl_side, [message])
    assert ours == list(theirs)
    assert "<tool_response>\ntotal 0" in smollm2.decode(ours)


def test_grpo_trainer_takes_smollm2_with_environment_factory(smollm2, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from transformers import AutoModelForCausalLM
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.integrations.trl import to_hf_dataset
    from rlvr.integrations.trl_episodes import trainer_kwargs
    from rlvr.models import resolve_model
    from rlvr.registry import load_env

    env = load_env("repair-python")
    model = AutoModelForCausalLM.from_pretrained(resolve_model("smollm2-135m"))
    args = GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=2, num_generations=2,
                      max_steps=1, use_cpu=True, report_to="none", save_strategy="no")  # fmt: skip
    tasks = env.tasks_in("train")[:1]
    trainer = GRPOTrainer(model=model, train_dataset=to_hf_dataset(env, tasks), args=args,
                          processing_class=smollm2, **trainer_kwargs(env))  # fmt: skip
    assert trainer.tools, "the environment's tools reach TRL"


def test_a_vocabulary_without_chatml_keeps_plain_text_observations() -> None:
    from rlvr.tiny import load_tokenizer, tiny_dir

    tokenizer = load_tokenizer(tiny_dir())
    template = tokenizer.chat_template
    assert adopt_tool_template(tokenizer) is False
    assert tokenizer.chat_template == template
    with pytest.raises(RlvrError, match="no ChatML tokens"):
        with_tool_template(tokenizer)
    assert EpisodeRunner.message(Observation(tool="bash", content="x"))["role"] == "user"
