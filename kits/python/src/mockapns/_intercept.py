"""`intercept()`: Apple's APNs host names, and Google's FCM names when the mock serves them, lead to a mock in this
process, so a sender runs unchanged.

Inside the block:

- `socket.getaddrinfo` (which `socket.create_connection`, asyncio's `loop.getaddrinfo` and anyio call) answers each
  name the mock serves with a stand-in loopback address of its own and the port asked for: Apple's five names
  127.0.80.1…5 (a mock with `apple_hosts`), Google's three (fcm.googleapis.com, oauth2.googleapis.com,
  iid.googleapis.com) 127.0.80.6…8 (a mock with `fcm`). A name the mock does not serve is resolved as before;
- `socket.socket.connect` / `connect_ex` turn a connection to (stand-in, the name's port) into one to the mock's
  listener for that name and port, and refuse any other port of those names. The redirection is at connect, not in
  the resolved port, because some clients (anyio, so httpx's async client) keep only the resolved address and
  connect to the port they were given;
- `ssl.SSLContext.wrap_socket` / `wrap_bio` add the mock's CA to a client context the first time it opens a TLS
  connection to one of those names (urllib3 makes a context per connection, httpx one per client: both get it).

Every other name, address and context is left alone. All three are process-wide (every thread), so one interception
at a time. A client that does its own resolution or connects outside Python's socket module (uvloop, a C library)
is not redirected: its connection goes to the stand-in address, where nothing listens, and is refused.
"""

from __future__ import annotations

import errno
import socket
import ssl
import threading
import weakref
from typing import Any, Callable, Dict, Optional, Set, Tuple

from ._control import MockAPNsError

#: The push hosts: production, and the two development names (Apple's current one and its older alias).
PUSH_HOSTS = ("api.push.apple.com", "api.sandbox.push.apple.com", "api.development.push.apple.com")
#: The broadcast channel-management hosts and the one port each listens on.
MANAGE_HOSTS = {"api-manage-broadcast.sandbox.push.apple.com": 2195, "api-manage-broadcast.push.apple.com": 2196}
APPLE_HOSTS = PUSH_HOSTS + tuple(MANAGE_HOSTS)
#: Apple's ports, as the ready file's `apple_ports` names them.
APPLE_PORTS = (443, 2197, 2195, 2196)
#: Google's names a Firebase sender calls, each on 443: FCM HTTP v1 (`messages:send`), the service account's OAuth
#: token exchange (`/token`, the `token_uri` of Google's service-account files) and IID topic management.
GOOGLE_HOSTS = ("fcm.googleapis.com", "oauth2.googleapis.com", "iid.googleapis.com")
#: Google's port, as the ready file's `fcm_ports` names it.
GOOGLE_PORT = 443
#: The address each name resolves to inside the block: loopback addresses nothing listens on (Linux routes all of
#: 127.0.0.0/8 to lo), one per name, so a connection says which name it was for even when the client dropped the name
#: after resolving it.
STAND_IN = {name: "127.0.80.%d" % (index + 1) for index, name in enumerate(APPLE_HOSTS + GOOGLE_HOSTS)}
_NAME_OF = {address: name for name, address in STAND_IN.items()}


def apple_routes(host: str, apple_ports: Dict[int, int]) -> Dict[Tuple[str, int], Tuple[str, int]]:
    """(Apple's name, Apple's port) → (mock host, mock port), from `apple_ports` (Apple's port → the mock's)."""
    routes: Dict[Tuple[str, int], Tuple[str, int]] = {}
    for name in PUSH_HOSTS:
        for port in (443, 2197):
            routes[(name, port)] = (host, apple_ports[port])
    for name, port in MANAGE_HOSTS.items():
        routes[(name, port)] = (host, apple_ports[port])
    return routes


def google_routes(host: str, fcm_ports: Dict[int, int]) -> Dict[Tuple[str, int], Tuple[str, int]]:
    """(Google's name, 443) → (mock host, mock port), from `fcm_ports` (Google's port → the mock's)."""
    return {(name, GOOGLE_PORT): (host, fcm_ports[GOOGLE_PORT]) for name in GOOGLE_HOSTS}


def _served_name(host: Any) -> Optional[str]:
    """`host` as one of the names the interception in force serves (any case, bytes as anyio passes them, a trailing
    dot), else None."""
    interception = _active
    if interception is None:
        return None
    if isinstance(host, (bytes, bytearray)):
        try:
            host = bytes(host).decode("ascii")
        except UnicodeDecodeError:
            return None
    if not isinstance(host, str):
        return None
    name = host.lower().rstrip(".")
    return name if name in interception.names else None


# The process-wide state: the interception in force (None outside every block) and what its block replaced (what
# the functions below hand everything else to; taken at entry, so a resolver someone installed before is kept).
_lock = threading.Lock()
_active: Optional["Interception"] = None
_original_getaddrinfo: Callable[..., Any] = socket.getaddrinfo
_original_connect: Callable[..., Any] = socket.socket.connect
_original_connect_ex: Callable[..., Any] = socket.socket.connect_ex
_original_wrap_socket: Callable[..., Any] = ssl.SSLContext.wrap_socket
_original_wrap_bio: Callable[..., Any] = ssl.SSLContext.wrap_bio


def _getaddrinfo(host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0, flags: int = 0) -> Any:
    name = _served_name(host)
    if name is None:
        return _original_getaddrinfo(host, port, family, type, proto, flags)
    return _original_getaddrinfo(STAND_IN[name], port, family, type, proto, flags | socket.AI_NUMERICHOST)


def _redirect(address: Any) -> Any:
    """The address to connect to instead of `address`: the mock's listener for a stand-in address and Apple's port;
    ConnectionRefusedError for a stand-in with a port the name is not served on; `address` itself otherwise."""
    interception = _active
    if interception is None or not isinstance(address, tuple) or len(address) != 2:
        return address
    name = _NAME_OF.get(address[0]) if isinstance(address[0], str) else None
    if name is None or name not in interception.names:
        return address
    target = interception.routes.get((name, address[1]))
    if target is None:
        served = sorted(port for (host, port) in interception.routes if host == name)
        raise ConnectionRefusedError(
            errno.ECONNREFUSED, "Connection refused: mockapns intercept() serves %s on port %s only, not %s"
            % (name, " and ".join(str(port) for port in served), address[1]))
    return target


def _connect(self: socket.socket, address: Any) -> None:
    return _original_connect(self, _redirect(address))


def _connect_ex(self: socket.socket, address: Any) -> int:
    try:
        target = _redirect(address)
    except ConnectionRefusedError:
        return errno.ECONNREFUSED
    return _original_connect_ex(self, target)


def _trust(context: ssl.SSLContext, server_side: bool, server_hostname: Any) -> None:
    interception = _active
    name = None if interception is None or server_side else _served_name(server_hostname)
    if interception is None or name is None:
        return
    interception.trust(context, name)


def _wrap_socket(self: ssl.SSLContext, sock: socket.socket, server_side: bool = False,
                 do_handshake_on_connect: bool = True, suppress_ragged_eofs: bool = True,
                 server_hostname: Optional[str] = None, session: Optional[ssl.SSLSession] = None) -> ssl.SSLSocket:
    _trust(self, server_side, server_hostname)
    return _original_wrap_socket(self, sock, server_side=server_side, do_handshake_on_connect=do_handshake_on_connect,
                                 suppress_ragged_eofs=suppress_ragged_eofs, server_hostname=server_hostname,
                                 session=session)


def _wrap_bio(self: ssl.SSLContext, incoming: ssl.MemoryBIO, outgoing: ssl.MemoryBIO, server_side: bool = False,
              server_hostname: Optional[str] = None, session: Optional[ssl.SSLSession] = None) -> ssl.SSLObject:
    _trust(self, server_side, server_hostname)
    return _original_wrap_bio(self, incoming, outgoing, server_side=server_side, server_hostname=server_hostname,
                              session=session)


#: (owner, attribute, our function, the name of the module global holding what it replaced)
_PATCHES = ((socket, "getaddrinfo", _getaddrinfo, "_original_getaddrinfo"),
            (socket.socket, "connect", _connect, "_original_connect"),
            (socket.socket, "connect_ex", _connect_ex, "_original_connect_ex"),
            (ssl.SSLContext, "wrap_socket", _wrap_socket, "_original_wrap_socket"),
            (ssl.SSLContext, "wrap_bio", _wrap_bio, "_original_wrap_bio"))
#: Which of those attributes the class only inherited before the block (so leaving deletes ours instead).
_inherited: Dict[str, bool] = {}


class Interception:
    """The context manager `intercept()` returns. Entering it leads the names of `routes` (Apple's, Google's, or both)
    to the mock; leaving it puts `socket.getaddrinfo`, `socket.socket.connect`/`connect_ex` and
    `ssl.SSLContext.wrap_socket`/`wrap_bio` back as they were. Connections opened inside the block stay where they are
    when it ends (a pooled client keeps talking to the mock over them); new ones go to Apple and Google."""

    def __init__(self, mock: Any, address: str, routes: Dict[Tuple[str, int], Tuple[str, int]], ca_file: str,
                 check: Callable[[], None], ca_files: Optional[Dict[str, str]] = None):
        self.mock = mock          # the MockAPNs (or MockAPNsContainer) whose block this is
        self.owner = repr(mock)
        self.routes = {key: (_numeric(host), port) for key, (host, port) in routes.items()}
        #: The names led to the mock: those of `routes`; every other name (Google's too, for a mock without them) is
        #: resolved, connected and verified as before.
        self.names = frozenset(name for name, _ in self.routes)
        self.ca_file = ca_file
        #: The CA each name's certificate chains to, where it is not `ca_file`.
        self.ca_files = dict(ca_files or {})
        self._check = check
        self._trusted: "weakref.WeakKeyDictionary[ssl.SSLContext, Set[str]]" = weakref.WeakKeyDictionary()
        self._trust_lock = threading.Lock()
        self._entered = False

    def trust(self, context: ssl.SSLContext, name: Optional[str] = None) -> None:
        """Adds the mock's CA (for `name`: the one its certificate chains to) to `context`, once. The CA is the mock's
        own (made for it; its key never leaves the mock), so it vouches only for that mock's certificates; the
        context keeps it after the block."""
        ca = self.ca_files.get(name, self.ca_file) if name is not None else self.ca_file
        with self._trust_lock:
            loaded = self._trusted.setdefault(context, set())
            if ca in loaded:
                return
            context.load_verify_locations(cafile=ca)
            loaded.add(ca)

    def __enter__(self) -> "Interception":
        global _active
        if self._entered:
            raise MockAPNsError("This intercept() block was already entered; call %s.intercept() again for another "
                                "block." % self.owner)
        self._check()
        with _lock:
            if _active is not None:
                same = _active.mock is self.mock
                apple = any(name in _active.names for name in APPLE_HOSTS)
                raise MockAPNsError(
                    "%s.intercept(): %s already intercepts %s host names in this process (%s), and there is "
                    "one resolver per process. Leave that `with ….intercept():` block first%s."
                    % (self.owner, "it" if same else _active.owner, "Apple's" if apple else "Google's FCM",
                       "blocks do not nest" if same else "two mocks cannot both be %s"
                       % ("api.push.apple.com" if apple else "fcm.googleapis.com"), "" if same else
                       ", or send to this mock by its url and ca_file instead"))
            for owner, attribute, ours, saved in _PATCHES:
                current = getattr(owner, attribute)
                if current is not ours:
                    globals()[saved] = current
                    _inherited[attribute] = attribute not in vars(owner)
                setattr(owner, attribute, ours)
            _active = self
            self._entered = True
        return self

    def __exit__(self, *exc_info: Any) -> None:
        global _active
        with _lock:
            if _active is not self:
                return
            _active = None
            # Put back only what is still ours: whatever was patched over it inside the block keeps its patch (our
            # functions pass everything through while no interception is in force).
            for owner, attribute, ours, saved in _PATCHES:
                if vars(owner).get(attribute) is ours:
                    if _inherited.get(attribute):
                        delattr(owner, attribute)       # socket.socket inherits connect from _socket.socket
                    else:
                        setattr(owner, attribute, globals()[saved])

    @property
    def active(self) -> bool:
        """Whether this block is the one in force."""
        return _active is self


def _numeric(host: str) -> str:
    """`host` as an IPv4 address (the stand-ins are IPv4, so the socket a client made for them is too)."""
    try:
        return _original_getaddrinfo(host, None, socket.AF_INET, socket.SOCK_STREAM)[0][4][0]
    except OSError as error:
        raise MockAPNsError("intercept(): the mock's host %r has no IPv4 address (%s); it must be reachable over "
                            "IPv4, e.g. 127.0.0.1." % (host, error)) from None


def active_interception() -> Optional[Interception]:
    """The interception in force in this process, if any."""
    return _active
