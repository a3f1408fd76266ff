import Graft
import Vapor

/// Shuts the container down when the application shuts down: in-flight requests first.
///
/// Vapor runs lifecycle handlers before it stops its HTTP server (the server is stopped with the
/// application's storage, afterwards). Shutting the container down first would close the scopes
/// of requests still being answered, so this handler stops the server itself, which waits for
/// open connections to finish their responses (up to the server's `shutdownTimeout`), and only
/// then shuts the container down, awaiting async disposals. Stopping a stopped server does
/// nothing, so Vapor's own stop afterwards is harmless.
struct ContainerShutdown: LifecycleHandler {
    let container: Container

    func shutdownAsync(_ application: Application) async {
        await application.server.shutdown()
        do {
            try await container.shutdown()
        } catch {
            application.logger.error("\(error)")
        }
    }
}
