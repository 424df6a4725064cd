import Hummingbird


/// `GET /metrics`: Prometheus text format.
struct MetricsRoute {
    let metrics: RequestMetrics

    func register(on router: Router<ControlRequestContext>) {
        router.get("metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition()))
            )
        }
    }
}
