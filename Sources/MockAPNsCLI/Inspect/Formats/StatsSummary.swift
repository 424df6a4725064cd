import APNsModel
import MockAPNsRecording
import MockAPNsControl

/// The `/api/v1/stats` object computed from records (for recordings read with `--file`).
enum StatsSummary {
    /// The same JSON the control plane's `/api/v1/stats` answers, counted while the recording streams by: the
    /// counters are all that is kept.
    static func json(of file: RecordFile) throws(InspectError) -> JSONValue {
        var statistics = RecorderStatistics()
        try file.forEachRecord { record in
            statistics.count(record)
            return true
        }
        return statistics.jsonValue()
    }
}
