"""A hand-entered value the action cannot use is refused before anything changes,
so no question is ever left open that no answer can close."""

from __future__ import annotations

from tests.e2e.test_rotted_capes import fight, to_the_brutes_turn


async def test_a_roll_no_d20_shows_is_refused_and_the_fight_goes_on(standin, bot):
    await fight(standin)
    await to_the_brutes_turn(standin)
    before = len(standin.messages())

    answer = await (await standin.invoke("gm", "/attack", target="Nova", roll=25)).response()

    assert answer.ephemeral and answer.content.startswith("⛔") and "25 cannot be rolled on a d20" in answer.content
    assert not [m for m in standin.messages()[before:] if m.components or not m.ephemeral]
    # Nothing waits: the GM attacks again with a real roll, and Nova's player is asked about the Plot Point.
    asked = await (await standin.invoke("gm", "/attack", target="Nova", roll=12)).response()
    assert not asked.ephemeral
    await standin.wait_for(
        lambda: next(
            (
                m
                for m in reversed(standin.messages())
                if any("Plot Point" in (b.get("label") or "") for b in m.buttons())
            ),
            None,
        )
    )
