import APNsModel
import MockAPNs
import MockAPNsControl

/// The `/api/v1/stats` object computed from records (for recordings read with `--file`).
enum StatsSummary {
    /// The same JSON the control plane's `/api/v1/stats` answers.
    static func json(of records: [RecordedRequest]) -> JSONValue {
        var statistics = RecorderStatistics()
        for record in records { statistics.count(record) }
        return statistics.jsonValue()
    }
}
