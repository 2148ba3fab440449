"""60 combatants with long names: every message stays within Discord's limits
(the stand-in answers an oversize one with HTTP 400), and the tracker pages so
that /encounter status page:N shows everyone exactly once."""

from __future__ import annotations

import re

from bot.standin import running_standin

from .support import must, pinned_tracker, reliability_world, running_bot, say, setup_campaign

LONG = "Ogre of the Very Long and Extremely Tedious Name, Third of"  # 59 characters


def names_on(description: str) -> list[str]:
    return re.findall(r"(Nova|Bulwark|Brute \d+|Ogre of the [^—(\n]*? \d+)", description)


async def test_sixty_combatants_page_and_stay_within_limits(database_url, errors):
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url) as bot:
            await setup_campaign(standin)
            await must(standin, "gm", "/encounter start")
            await must(standin, "alice", "/initiative join", character="Nova", roll=19)
            await must(standin, "bob", "/initiative join", character="Bulwark", roll=5)
            # Every Brute a different initiative, so 50 lines; the Ogres tie and share one turn.
            brute_dice = " ".join(str(20 - n % 20) for n in range(50))
            await must(
                standin,
                "gm",
                "/initiative add",
                name="Brute",
                count=50,
                stats="stamina=1000 fortitude=1000 dr='fire:10'",
                dice=brute_dice,
            )
            added = await must(
                standin, "gm", "/initiative add", name=LONG, count=8, stats="stamina=999 wounds=999", dice="1 " * 8
            )
            assert len(added.content) <= 2000
            await must(standin, "gm", "/initiative next")
            await bot.idle.wait()

            first = await say(standin, "alice", "/encounter status")
            pages = int(re.search(r"page 1/(\d+)", first.embeds[0]["footer"]["text"]).group(1))
            seen = []
            for page in range(1, pages + 1):
                shown = await say(standin, "alice", "/encounter status", page=page)
                assert f"page {page}/{pages}" in shown.embeds[0]["footer"]["text"]
                seen += names_on(shown.embeds[0]["description"])
            assert len(seen) == len(set(seen)) == 60, f"{len(seen)} lines over {pages} pages"
            beyond = await say(standin, "alice", "/encounter status", page=100)
            assert f"page {pages}/{pages}" in beyond.embeds[0]["footer"]["text"]

            order = await say(standin, "bob", "/initiative order")
            assert not order.ephemeral and "/encounter status page:N" in order.embeds[0]["footer"]["text"]
            tracker = pinned_tracker(standin, "combat")
            assert "/encounter status page:N" in tracker.embeds[0]["footer"]["text"]
            # Big answers: a 50-strong group's damage, the whole log, every condition.
            await must(standin, "gm", "/damage", target="Brute 1", amount="100d6", damage_type="fire")
            log = await say(standin, "gm", "/encounter log")
            assert log.attachments and log.attachments[0].data.count(b"\n") > 5
            await say(standin, "gm", "/condition list")
            await bot.idle.wait()
        assert standin.rejected == [], standin.rejected
        assert errors.records == [], errors.describe()
