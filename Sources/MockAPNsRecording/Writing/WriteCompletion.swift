/// What `--record-sync` runs once a record is written (true) or known lost (false), from the writer that had it: the
/// held answer goes out then, as a 500 when the record was lost.
package typealias WriteCompletion = @Sendable (_ written: Bool) -> Void
