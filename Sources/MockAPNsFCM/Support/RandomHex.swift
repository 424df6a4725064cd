/// `count` random bytes as lowercase hex: the APNs device tokens the front door makes for its iPhones and the key ids
/// of the service accounts it makes.
func randomHex(bytes count: Int) -> String {
    var random = SystemRandomNumberGenerator()
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(count * 2)
    for _ in 0..<count {
        let byte = UInt8.random(in: 0...255, using: &random)
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: text, as: UTF8.self)
}
