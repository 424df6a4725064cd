/// One file of the dashboard, compiled into the binary (SwiftPM `embedInCode`), so `mockapns serve` serves the
/// page from any directory and as an installed binary, with no file lookup at run time.
struct DashboardAsset: Sendable {
    /// The bytes.
    let bytes: [UInt8]
    /// Its `content-type`.
    let contentType: String

    /// The page at `/`.
    static let index = DashboardAsset(bytes: PackageResources.index_html, contentType: "text/html; charset=utf-8")

    /// The files under `/dashboard/`, by name.
    static let files: [String: DashboardAsset] = [
        "app.js": DashboardAsset(bytes: PackageResources.app_js, contentType: "text/javascript; charset=utf-8"),
        "render.js": DashboardAsset(bytes: PackageResources.render_js, contentType: "text/javascript; charset=utf-8"),
        "devices.js": DashboardAsset(bytes: PackageResources.devices_js, contentType: "text/javascript; charset=utf-8"),
        "app.css": DashboardAsset(bytes: PackageResources.app_css, contentType: "text/css; charset=utf-8"),
    ]
}
