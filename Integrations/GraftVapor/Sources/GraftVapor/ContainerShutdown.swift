import Graft
import Vapor

/// Shuts the container down when the application shuts down, awaiting async disposals.
///
/// Vapor runs lifecycle handlers' shutdown after the HTTP server stopped accepting and
/// answering requests, so no request scope is made after it.
struct ContainerShutdown: LifecycleHandler {
    let container: Container

    func shutdownAsync(_ application: Application) async {
        do {
            try await container.shutdown()
        } catch {
            application.logger.error("\(error)")
        }
    }
}
