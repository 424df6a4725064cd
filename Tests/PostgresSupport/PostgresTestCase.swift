import PeerSupport
import XCTest

/// A test class with a throwaway PostgreSQL cluster of its own: started before its first test, stopped after its
/// last (``PostgresCluster``). Subclasses reach it as `Self.cluster` (nil, with a failure said once, when it could
/// not start).
open class PostgresTestCase: LeakCheckedTestCase {
    /// The running cluster of the class whose tests run now.
    nonisolated(unsafe) public static var cluster: PostgresCluster?

    override open class func setUp() {
        super.setUp()
        do { cluster = try PostgresCluster() } catch { XCTFail("cannot start PostgreSQL for the tests: \(error)") }
    }

    override open class func tearDown() {
        cluster?.stop()
        cluster = nil
        super.tearDown()
    }
}
