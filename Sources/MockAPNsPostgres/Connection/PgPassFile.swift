import Foundation

/// The `~/.pgpass` file libpq reads passwords from (`PGPASSFILE` names another): lines of
/// `hostname:port:database:username:password`, `*` matching anything, `\:` and `\\` escaping, `#` comments; the
/// first matching line wins. As libpq does, a file others can read is ignored (with a warning on stderr).
struct PgPassFile {
    private let lines: [[String]]

    /// The file `environment` points at, or nil when there is none (or it is readable by others).
    init?(environment: [String: String]) {
        guard let path = environment["PGPASSFILE"] ?? environment["HOME"].map({ $0 + "/.pgpass" }),
              let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let data = FileManager.default.contents(atPath: path) else { return nil }
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            FileHandle.standardError.write(Data(
                "mockapns: ignoring \(path): it is readable by others (chmod 600 \(path) to use it)\n".utf8))
            return nil
        }
        lines = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = Self.fields(of: Substring(line))
            return fields.count == 5 ? fields : nil
        }
    }

    /// The password of the first line matching the connection, if any.
    func password(host: String, port: Int, database: String, user: String) -> String? {
        let wanted = [host, String(port), database, user]
        return lines.first { line in zip(line.prefix(4), wanted).allSatisfy { $0 == "*" || $0 == $1 } }?[4]
    }

    /// The colon-separated fields of `line`, escapes removed.
    private static func fields(of line: Substring) -> [String] {
        var fields: [String] = [], current = "", escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
