"""What `/help` shows for 99 Towers: enough to run a fight.

`/help` shows it a section at a time (each line opening with a **bold** title
starts one), so every section stays far below an embed's limit.
"""

from rules.said import N_

HELP = N_(
    "A flip keeps the highest card; flip±X = X more/fewer cards (at least one), shift±X adds to it. "
    "Real cards: `cards:\"KH 4C\"` (actor's, then NPC defenders').\n"
    "**Sheet** `init=2 ss=2 hs=3 pa=4 pd=3 id sa px er ir endurance stun lethal size mana immune susceptible "
    "weapons='Rifle: 7 r12; Knife: 2+px +1pa; Bolt: 6 sa arcane fire r10'`; "
    "`companion_of=Tony`: an animal companion on Tony's turns (one action for the two, `actor:Rex`; "
    "a move moves both; a chip heals either: `/act action:discard chip target:Rex`)\n"
    "**Clock** ⟨N⟩ cards + N = CI; first phase 20−CI (+10 `surprised:true`); ties CI, N, SS, flip-off. "
    "Zero phases: mana +1, ongoing damage, −1 LETHAL if below 0.\n"
    "**/act action:** aim 5, move 5, shift 3 (+2 on another: `options:step`), full defense 10, recover 5, "
    "reckless move 7 (flip−1 on every opposed check, attack or defence, until you next act), leap 5+5, "
    "use skill `options:cost=4`, zero cost, hold → `release target:Boss` "
    "(`options:after`), `stance options:aggressive|defensive|none` (two melee weapons: PA+1 PD−1 or PD+1 PA−1, free). "
    "End turn = Forced Delay 5, refused in a phase where you took a free or zero-cost action.\n"
    '**/attack target:Bandit** `weapon:Knife options:"cover=soft|hard outnumber=3:1 unaware high power '
    'charge aid ally=X knockback"` (melee: an adjacent foe); ranged `weapon:Rifle options:"range=14"`; '
    '`target:"A, B"` area. Out of turn: `/act action:oa actor:Tony target:Bandit`. '
    'Player defence: **Flip** or `/choose option:Flip cards:"QC 5H"`.\n'
    "**Damage** weapon + ♥ − ER/IR, min 1 STUN; LETHAL = ♥ (≤ STUN); ♥ on a hit = critical.\n"
    '**GM** `/damage amount:"20 ft"`, `amount:8 damage_type:"arcane cold" options:"lethal=1 flips=2"`, '
    '`/heal options:lethal|temp`, `/condition add duration:"2 rounds" options:ongoing=2`, '
    '`/save kind:endurance dc:5` (Attack 5; `cards:"…"`: its cards, then yours).\n'
    "**Defaults** 52 cards, no jokers, A 14, reshuffled when empty; players flip their defence; disabled may act, "
    "dying cannot; flat-footed PD −SS; `/campaign rest kind:five_minutes` restores STUN and mana. "
    '`/campaign setup settings:"defender_flips=auto surprise_phases=10 '
    'mana_per_zero_phase=1 disabled_can_act=false"`\n'
    "**Checks** `/check character:Tony kind:endurance dc:5` flips the stat's cards against an effect's Attack 5 "
    "(a higher card resists; kinds endurance ss hs pd id pa sa init er ir); `against:Mira` an opposed flip, a tie "
    'to the roller (`options:vs=pd`: hers); `kind:skill options:"ranks=3 aspect=ss"` ranks + Aspect; '
    '`flip=±N shift=±N`. Cards come from the campaign\'s deck, or `cards:"QC 7D"`.\n'
    "**GM's call** (README): positions, knockback's distance, marks, duels → `/encounter note`."
)
