"""Start-up reads the newest migration from the scripts' text; it must agree with alembic."""

from alembic.script import ScriptDirectory

from bot.db import alembic_config, head_revision


def test_head_read_from_the_scripts_is_alembics_head():
    assert head_revision() == ScriptDirectory.from_config(alembic_config()).get_current_head()
