import Foundation
import MockAPNs
import MockAPNsPostgres

/// `serve --retain-count N` / `--retain-age 14d`: prunes the store's namespace in the background every `interval`,
/// one instance at a time (the others skip a round while one holds the prune lock); inserts never wait for it.
/// A failing round is said once on stderr, and again once pruning works.
enum StorePruner {
    /// Starts pruning; cancel the task to stop. What each round pruned is counted by `recorder` for `/metrics`.
    static func start(store: PostgresRecordStore, recorder: Recorder, keepNewest: Int?, maxAgeMillis: Int64?,
                      interval: Duration) -> Task<Void, Never> {
        Task.detached {
            var failing = false
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                if Task.isCancelled { break }
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                let retention = RecordRetention(keepNewest: keepNewest, receivedBeforeMillis: maxAgeMillis.map { now - $0 })
                do {
                    if let pruned = try await store.pruneExclusively(retention) { recorder.countStorePruned(pruned) }
                    if failing {
                        failing = false
                        FileHandle.standardError.write(Data("mockapns: pruning \(store.label) works again\n".utf8))
                    }
                } catch {
                    if !failing {
                        failing = true
                        FileHandle.standardError.write(Data(
                            "mockapns: pruning \(store.label) failed: \(store.describe(error)); retrying every \(interval)\n".utf8))
                    }
                }
            }
        }
    }
}
