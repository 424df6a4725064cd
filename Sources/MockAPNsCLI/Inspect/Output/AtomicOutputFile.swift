#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file written under a temporary name beside it and renamed into place once complete: `export -o`
/// streams into it, and a failed export leaves no half-written file (nor replaces an earlier one).
struct AtomicOutputFile {
    /// The path asked for.
    let path: String
    /// The temporary file being written.
    let temporaryPath: String
    /// Its descriptor.
    let descriptor: Int32

    /// Creates the temporary file next to `path`.
    /// - Throws: ``InspectError/unwritable(path:reason:)`` when the folder does not exist or cannot be written.
    init(path: String) throws(InspectError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        temporaryPath = "\(folder).\(name).mockapns-\(getpid()).tmp"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Self.unwritable(path) }
    }

    /// Closes the temporary file and renames it to ``path``.
    /// - Throws: ``InspectError/unwritable(path:reason:)`` when it cannot be closed or renamed (a folder by that name).
    func commit() throws(InspectError) {
        guard close(descriptor) == 0, rename(temporaryPath, path) == 0 else {
            unlink(temporaryPath)
            throw Self.unwritable(path)
        }
    }

    /// Closes and removes the temporary file (after a failure).
    func discard() {
        close(descriptor)
        unlink(temporaryPath)
    }

    private static func unwritable(_ path: String) -> InspectError {
        .unwritable(path: path, reason: "check that the folder exists and is writable")
    }
}
