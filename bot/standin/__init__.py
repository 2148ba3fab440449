"""A local stand-in for Discord's REST API and gateway, for tests and the sandbox.

The real, unmodified discord.py client talks to it over 127.0.0.1; only
``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` are redirected
(``harness.patched_endpoints``).
"""

from .commands import CommandRegistry, InvalidInvocation
from .harness import patched_endpoints, running_client, running_standin, start_client, stop_client
from .interactions import InteractionHandle
from .mentions import Pings, compute_pings
from .ratelimits import RateLimits
from .records import RecordedAttachment, RecordedMessage, Revision
from .server import NoBotSession, StandIn
from .waiting import StandInTimeout
from .world import SANDBOX_GUILD, Channel, Guild, Member, Role, User, World, default_world

__all__ = [
    "Channel",
    "CommandRegistry",
    "Guild",
    "InteractionHandle",
    "InvalidInvocation",
    "Member",
    "NoBotSession",
    "Pings",
    "RecordedAttachment",
    "RecordedMessage",
    "Revision",
    "RateLimits",
    "Role",
    "SANDBOX_GUILD",
    "StandIn",
    "StandInTimeout",
    "User",
    "World",
    "compute_pings",
    "default_world",
    "patched_endpoints",
    "running_client",
    "running_standin",
    "start_client",
    "stop_client",
]
