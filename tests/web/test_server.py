"""The page server's parts that bound what a visitor costs: a queue of one per page, buckets per address."""

from __future__ import annotations

import asyncio

from aiohttp.test_utils import make_mocked_request
from multidict import CIMultiDict

from bot.web.page import View
from bot.web.server import RateLimit, Watch, address_of
from bot.web.shares import Share


def a_view(version: int) -> View:
    return View(version=version, title="", round="", now="", waiting="", order="", clock="", results="")


def test_a_slow_page_keeps_only_the_latest_state_however_many_changes_it_missed():
    watch = Watch(Share(token="t" * 43, encounter_id=1, channel_id=2, locale=None))
    slow: asyncio.Queue[View | None] = asyncio.Queue(maxsize=1)
    watch.pages.add(slow)
    for version in range(1, 1001):
        watch.publish(a_view(version))
    assert slow.qsize() == 1 and slow.get_nowait().version == 1000


def test_an_address_gets_its_burst_then_its_rate_and_others_are_not_slowed():
    now = [0.0]
    limit = RateLimit(burst=3, rate=1.0, clock=lambda: now[0])
    assert [limit.allow("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("10.0.0.2")
    now[0] = 1.0
    assert limit.allow("10.0.0.1") and not limit.allow("10.0.0.1")


def test_only_a_proxy_on_this_machine_names_the_visitor():
    proxied = make_mocked_request("GET", "/", headers={"X-Forwarded-For": "1.2.3.4, 5.6.7.8"}).clone(remote="127.0.0.1")
    assert address_of(proxied) == "5.6.7.8"
    spoofed = make_mocked_request("GET", "/", headers={"X-Forwarded-For": "5.6.7.8"}).clone(remote="203.0.113.9")
    assert address_of(spoofed) == "203.0.113.9"
    # A client's own header line comes before the one its proxy adds: the proxy's last address counts.
    lines = CIMultiDict([("X-Forwarded-For", "6.6.6.6"), ("X-Forwarded-For", "1.2.3.4")])
    assert address_of(make_mocked_request("GET", "/", headers=lines).clone(remote="127.0.0.1")) == "1.2.3.4"


def test_an_ipv6_visitor_is_known_by_its_64_which_one_place_holds_whole():
    one, two = (
        make_mocked_request("GET", "/").clone(remote=address) for address in ("2001:db8:1:2::5", "2001:db8:1:2:ff::9")
    )
    assert address_of(one) == address_of(two) == "2001:db8:1:2::/64"
