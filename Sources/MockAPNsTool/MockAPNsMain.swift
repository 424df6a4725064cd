// The `mockapns` executable: everything it does lives in MockAPNsCLI (Sources/MockAPNsCLI), which is tested in process.
import MockAPNsCLI

/// Runs the root command. An async `main` (not top-level code in main.swift) so the call picks
/// `MockAPNsCommand`'s async `main()`, not argument-parser's synchronous one.
@main
enum MockAPNsMain {
    static func main() async {
        await MockAPNsCommand.main()
    }
}
