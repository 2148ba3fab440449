"""A command that only forwards its options: its schema is its declaration's, and the
system gets exactly the options the user gave."""

from __future__ import annotations

from types import SimpleNamespace

import discord
from discord import app_commands as ac  # a name cogs.forwarding does not have
from discord.ext import commands

import cogs.forwarding
from cogs.forwarding import forwarded

KINDS = [ac.Choice(name="Quick", value="quick"), ac.Choice(name="Slow", value="slow")]


class Declaration:
    """/probe's options, once; a method, as a cog's command callback is."""

    async def probe(
        self,
        interaction: discord.Interaction,
        kind: ac.Choice[str],
        amount: ac.Range[int, 1, 5] = 1,
        text: str | None = None,
    ) -> None: ...


def as_probe(callback) -> ac.Command:
    """The slash command /probe around `callback`."""
    return ac.command(name="probe", description="A probe")(
        ac.describe(kind="Which", amount="How much")(ac.choices(kind=KINDS)(callback))
    )


class Declared(commands.Cog):
    probe = as_probe(Declaration.probe)


class Forwarded(commands.Cog):
    probe = as_probe(forwarded("probe_run")(Declaration.probe))

    @ac.command(name="labelled", description="A probe with its own log label")
    @forwarded("labelled_run", label="/labelled {text:.5}")
    async def labelled(self, interaction: discord.Interaction, text: str) -> None: ...


def schema(cog: commands.Cog, name: str) -> dict:
    tree = ac.CommandTree(discord.Client(intents=discord.Intents.none()))
    (command,) = [c for c in cog.get_app_commands() if c.name == name]
    return command.to_dict(tree)


def test_the_schema_is_the_declarations() -> None:
    forwarded_schema = schema(Forwarded(), "probe")
    assert forwarded_schema == schema(Declared(), "probe")
    assert [o["name"] for o in forwarded_schema["options"]] == ["kind", "amount", "text"]
    assert forwarded_schema["options"][1]["max_value"] == 5


async def run_forwarded(monkeypatch, name: str, **given) -> tuple[str, str, dict]:
    ran = []

    async def run(interaction, build, command):
        system = SimpleNamespace(command=lambda name, by, options, state: (name, options))
        ran.append((command, *build("by", system, "state")))

    monkeypatch.setattr(cogs.forwarding, "run", run)
    cog = Forwarded()
    (command,) = [c for c in cog.get_app_commands() if c.name == name]
    interaction = SimpleNamespace(command=command)
    await command.callback(cog, interaction, **given)
    (result,) = ran
    return result


async def test_the_system_gets_the_given_options(monkeypatch) -> None:
    line, name, options = await run_forwarded(monkeypatch, "probe", kind=KINDS[1], amount=3, text=None)
    assert (line, name) == ("/probe", "probe_run")
    assert options == {"kind": "slow", "amount": 3}  # a choice as its value; options not given left out


async def test_a_label_is_formatted_from_the_options(monkeypatch) -> None:
    line, name, options = await run_forwarded(monkeypatch, "labelled", text="Goblin chief")
    assert (line, name, options) == ("/labelled Gobli", "labelled_run", {"text": "Goblin chief"})
