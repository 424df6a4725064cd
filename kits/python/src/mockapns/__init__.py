"""Test kit for MockAPNs, a mock Apple Push Notification service.

`MockAPNs` runs `mockapns serve` (or its container image) for a test and wraps the control API: recorded pushes,
expectations with readable failure messages, device states, virtual devices over time (what a device shows), fault
rules and, with `fcm=True`, the FCM front door (registrations, FCM records). Installed, it is also a pytest plugin
with the `apns_mock` and `fcm_mock` fixtures: one server per test session, cleared before each test. Standard library
only.
"""

from ._control import MockAPNsError
from ._devices import DeviceScreen, ShownNotification, TimelineEntry
from ._fcm import FCMMessage, FCMRegistration
from ._notifications import Notification
from ._server import MockAPNs
from ._version import __version__

__all__ = ["DeviceScreen", "FCMMessage", "FCMRegistration", "MockAPNs", "MockAPNsError", "Notification",
           "ShownNotification", "TimelineEntry", "__version__"]
