"""Turn structures: who acts when, for every rule system.

Five structures cover the five systems: sorted initiative (`initiative`),
initiative with a per-turn time budget (`seconds`), faction alternation
(`factions`), a phase clock (`clock`) and alternating player/GM tracks
(`tracks`). Each is a small class over its own state value; systems plug in
through the hooks on `rules.system.System`.
"""
