import CNghttp2

/// One HTTP/2 frame as read off the wire.
public struct H2Frame: Equatable {
    public var type: UInt8
    public var flags: UInt8
    public var streamID: UInt32
    public var payload: [UInt8]

    public static let data: UInt8 = 0, headers: UInt8 = 1, rstStream: UInt8 = 3, settings: UInt8 = 4, ping: UInt8 = 6,
        goAway: UInt8 = 7, windowUpdate: UInt8 = 8
    public static let endStream: UInt8 = 0x1, ack: UInt8 = 0x1, endHeaders: UInt8 = 0x4

    /// A 32-bit big-endian value at `offset` of the payload (the top bit cleared where it is reserved).
    public func uint32(at offset: Int) -> UInt32 {
        UInt32(payload[offset]) << 24 | UInt32(payload[offset + 1]) << 16 | UInt32(payload[offset + 2]) << 8
            | UInt32(payload[offset + 3])
    }

    /// SETTINGS entries (identifier, value).
    public var settings: [(UInt16, UInt32)] {
        stride(from: 0, to: payload.count - payload.count % 6, by: 6).map { offset in
            (UInt16(payload[offset]) << 8 | UInt16(payload[offset + 1]), uint32(at: offset + 2))
        }
    }

    /// GOAWAY's error code, or RST_STREAM's.
    public var errorCode: UInt32 { type == H2Frame.goAway ? uint32(at: 4) : uint32(at: 0) }
    /// GOAWAY's last stream id.
    public var lastStreamID: UInt32 { uint32(at: 0) & 0x7FFF_FFFF }
    /// GOAWAY's debug data.
    public var debugData: [UInt8] { Array(payload.dropFirst(8)) }
}

/// Builds and reads raw HTTP/2 frames for driving a connection byte by byte (RFC 9113 §4, §6); header blocks are
/// HPACK-coded by nghttp2's own encoder and decoder, so the tests speak real HPACK without writing one.
public enum H2Wire {
    public static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    public static func frame(type: UInt8, flags: UInt8 = 0, stream: UInt32 = 0, payload: [UInt8] = []) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + bigEndian(stream & 0x7FFF_FFFF) + payload
    }

    public static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    public static func settings(_ entries: [(UInt16, UInt32)] = [], ack: Bool = false) -> [UInt8] {
        frame(type: H2Frame.settings, flags: ack ? H2Frame.ack : 0,
              payload: entries.flatMap { [UInt8($0.0 >> 8), UInt8($0.0 & 0xFF)] + bigEndian($0.1) })
    }

    public static func windowUpdate(stream: UInt32, increment: UInt32) -> [UInt8] {
        frame(type: H2Frame.windowUpdate, stream: stream, payload: bigEndian(increment))
    }

    public static func data(stream: UInt32, _ bytes: [UInt8], endStream: Bool = true) -> [UInt8] {
        frame(type: H2Frame.data, flags: endStream ? H2Frame.endStream : 0, stream: stream, payload: bytes)
    }

    public static func ping(_ opaque: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]) -> [UInt8] {
        frame(type: H2Frame.ping, payload: opaque)
    }

    /// Every complete frame in `bytes` from `offset` on; `offset` moves past them (a partial frame stays).
    public static func frames(in bytes: [UInt8], from offset: inout Int) -> [H2Frame] {
        var result: [H2Frame] = []
        while offset + 9 <= bytes.count {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            guard offset + 9 + length <= bytes.count else { break }
            let stream = (UInt32(bytes[offset + 5]) << 24 | UInt32(bytes[offset + 6]) << 16
                | UInt32(bytes[offset + 7]) << 8 | UInt32(bytes[offset + 8])) & 0x7FFF_FFFF
            result.append(H2Frame(type: bytes[offset + 3], flags: bytes[offset + 4], streamID: stream,
                                  payload: Array(bytes[(offset + 9)..<(offset + 9 + length)])))
            offset += 9 + length
        }
        return result
    }
}

/// An HPACK encoder and decoder pair for one connection (nghttp2's `nghttp2_hd_*`).
public final class HPACKCodec {
    private var deflater: OpaquePointer?
    private var inflater: OpaquePointer?

    public init() {
        precondition(nghttp2_hd_deflate_new(&deflater, 4096) == 0 && nghttp2_hd_inflate_new(&inflater) == 0)
    }

    deinit {
        nghttp2_hd_deflate_del(deflater)
        nghttp2_hd_inflate_del(inflater)
    }

    /// The header block for `fields`, in order.
    public func encode(_ fields: [(String, String)]) -> [UInt8] {
        // Every name and value in one buffer, so each nghttp2_nv points into memory that stays put for the call.
        var bytes: [UInt8] = []
        var ranges: [(name: Range<Int>, value: Range<Int>)] = []
        for (name, value) in fields {
            let nameStart = bytes.count
            bytes.append(contentsOf: name.utf8)
            let valueStart = bytes.count
            bytes.append(contentsOf: value.utf8)
            ranges.append((nameStart..<valueStart, valueStart..<bytes.count))
        }
        bytes.append(0)   // never empty, so the base address exists
        return bytes.withUnsafeMutableBufferPointer { raw in
            let base = raw.baseAddress!
            var nva = ranges.map { range in
                nghttp2_nv(name: base + range.name.lowerBound, value: base + range.value.lowerBound,
                           namelen: range.name.count, valuelen: range.value.count, flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            let bound = nghttp2_hd_deflate_bound(deflater, &nva, nva.count)
            var block = [UInt8](repeating: 0, count: bound)
            let written = nghttp2_hd_deflate_hd(deflater, &block, bound, &nva, nva.count)
            precondition(written >= 0, "HPACK encoding failed: \(written)")
            return Array(block.prefix(written))
        }
    }

    /// The fields of a header block the server sent.
    public func decode(_ block: [UInt8]) -> [(String, String)] {
        var fields: [(String, String)] = []
        var offset = 0
        while true {
            var nv = nghttp2_nv()
            var flags: Int32 = 0
            let consumed = block.withUnsafeBufferPointer { raw in
                nghttp2_hd_inflate_hd2(inflater, &nv, &flags, raw.baseAddress! + offset, raw.count - offset, 1)
            }
            precondition(consumed >= 0, "HPACK decoding failed: \(consumed)")
            offset += consumed
            if flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) != 0 {
                fields.append((String(decoding: UnsafeBufferPointer(start: nv.name, count: nv.namelen), as: UTF8.self),
                               String(decoding: UnsafeBufferPointer(start: nv.value, count: nv.valuelen), as: UTF8.self)))
            }
            if flags & Int32(NGHTTP2_HD_INFLATE_FINAL.rawValue) != 0 {
                nghttp2_hd_inflate_end_headers(inflater)
                return fields
            }
            if consumed == 0 && flags & Int32(NGHTTP2_HD_INFLATE_EMIT.rawValue) == 0 { return fields }
        }
    }
}
