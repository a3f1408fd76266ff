import Graft
import NIOWebSocket
import Vapor

/// Ends what Graft runs in the application when the application shuts down: WebSocket sessions
/// with a close frame, then in-flight requests, then, after every other lifecycle handler, the
/// container.
///
/// Vapor runs lifecycle handlers in the reverse order of their registration, before it stops its
/// HTTP server (the server is stopped with the application's storage, afterwards). So this
/// handler:
///
/// 1. sends every open WebSocket a close frame (`1001 going away`) and refuses new sessions,
///    since Vapor's server would otherwise wait out its `shutdownTimeout` for them and then cut
///    them off without one;
/// 2. stops the server itself, which waits for open connections to finish their responses (up to
///    the server's `shutdownTimeout`); stopping a stopped server does nothing, so Vapor's own stop
///    afterwards is harmless;
/// 3. waits for each WebSocket session to end, which closes its scope;
/// 4. leaves the container's shutdown to the application's storage, which Vapor shuts down after
///    every lifecycle handler: a handler registered before `install` (so run after this one)
///    still finds the container open.
struct ContainerShutdown: LifecycleHandler {
    let container: Container
    let sessions: WebSocketSessions

    func shutdownAsync(_ application: Application) async {
        let sessionTasks = sessions.closeAll()
        await application.server.shutdown()
        for task in sessionTasks {
            await task.value
        }
        let (container, logger) = (container, application.logger)
        await application.storage.setWithAsyncShutdown(ContainerShutdownKey.self, to: container) { container in
            do {
                try await container.shutdown()
            } catch {
                logger.error("\(ErrorReport.describe(error))")
            }
        }
    }
}

/// The container, in the application's storage for the storage's shutdown to shut it down.
enum ContainerShutdownKey: StorageKey {
    typealias Value = Container
}
