import PeerSupport

/// The repository's paths (``PeerSupport/RepoPaths``), for the targets that take their support from here.
public typealias RepoPaths = PeerSupport.RepoPaths

/// Waiting with a deadline (``PeerSupport/Poll``).
public typealias Poll = PeerSupport.Poll
