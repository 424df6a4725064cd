/// A record line's `seq`, read from the `{"seq":N,` the recorder starts every line with, without decoding the line:
/// how the recorder's file index and `show SEQ`'s binary search find their way through a recording of millions of lines.
package enum RecordSeqPrefix {
    /// The number after `{"seq":`, or by decoding the whole line when it does not start that way; nil when the line
    /// is not a record.
    package static func seq(of line: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let prefix = #"{"seq":"#.utf8
        if line.starts(with: prefix) {
            var value: UInt64 = 0
            var digits = 0
            for byte in line.dropFirst(prefix.count) {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                    if digits > 0, byte == UInt8(ascii: ",") { return value }
                    break
                }
                let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                guard !overflowA, !overflowB else { break }
                value = sum
                digits += 1
            }
        }
        return (try? RecordedRequest(jsonLine: line))?.seq
    }
}
