import Hummingbird

/// Makes every failure a JSON `{"error": …}` answer: unknown routes, wrong methods, and errors thrown
/// by handlers that are not already ``ControlAPIError``s.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ControlAPIError {
            throw error
        } catch let error as any HTTPResponseError {
            let message: String
            switch error.status {
            case .notFound:
                message = "No such endpoint: \(request.method.rawValue) \(request.uri.path). The API lives under /api/v1 (notifications, stream, stats, devices, faults), plus /metrics and /healthz."
            case .methodNotAllowed:
                message = "\(request.method.rawValue) is not allowed on \(request.uri.path)."
            case .contentTooLarge:
                message = "The request body is too large (the limit is 1 MiB)."
            default:
                message = "The request failed with status \(error.status.code) (\(error.status.reasonPhrase))."
            }
            throw ControlAPIError(error.status, message)
        }
    }
}
