import Graft
import GraftHummingbird
import GraftObservability
import GraftServiceLifecycle
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import UnixSignals

@main
struct TodoServer {
    static func main() async throws {
        let settings = Settings()
        let logger = Logger(label: "todo-server")
        // Metrics go to a Prometheus registry, served at GET /metrics; a creation takes
        // microseconds, so its histogram's buckets start there.
        let registry = PrometheusCollectorRegistry()
        var metrics = PrometheusMetricsFactory(registry: registry)
        metrics.durationHistogramBuckets["graft.creation.duration"] = [
            .microseconds(10), .microseconds(100), .milliseconds(1), .milliseconds(10), .milliseconds(100),
        ]
        MetricsSystem.bootstrap(metrics)

        // The Graft wiring: what exists, how long it lives, and what it needs.
        var builder = ContainerBuilder()
        if settings.metrics { builder.addObserver(MetricsObserver()) }  // graft_creations, graft_scopes_open, …
        builder.register(Settings.self, instance: settings)
        builder.register(ConnectionPool.self, lifetime: .eagerSingleton) { r in
            try await ConnectionPool.open(settings: r.resolve(Settings.self))
        }
        builder.register(UnitOfWork.self, lifetime: .scoped) { r in try await UnitOfWork.begin(pool: r.resolve()) }
        builder.onComplete(UnitOfWork.self)  // commits before the response; rolls back on error when disposed
        builder.register(TodoRepository.self, using: TodoRepository.init(unitOfWork:))
        builder.register(ScopeTally.self, lifetime: .singleton) { _ in ScopeTally() }
        builder.register(RequestStart.self, lifetime: .scoped, using: RequestStart.init(tally:))
        // Ready once the container has started: its one start hook runs after the pool exists.
        let readiness = Readiness()
        builder.onStart(ConnectionPool.self) { _ in readiness.markReady() }
        // A graph that cannot be built: its message on standard error, and exit status 1.
        let container = await builder.buildOrExit()

        let router = Router(context: BasicGraftRequestContext.self)
        router.readiness("health", readiness)  // 503 until the container has started
        router.get("bare/ping") { _, _ in "pong" }
        // The same answer with its body as a closure, the shape RequestScopeMiddleware gives each
        // response on Hummingbird's plain server (.http1()) to close the scope once it is
        // written, but no scope: a load test shows what that shape (head, body and end written
        // apart) costs.
        router.get("bare/ping-closure") { _, _ in
            let pong = ByteBuffer(string: "pong")
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(contentLength: pong.readableBytes) { writer in
                    try await writer.write(pong)
                    try await writer.finish(nil)
                }
            )
        }
        router.get("bare/stats") { _, _ in try container.resolve(ScopeTally.self).summary }
        router.get("metrics") { _, _ in registry.emitToString() }
        // A scope per request; one still running after 30 seconds is answered 503, its scope closed.
        addRoutes(to: router.group().add(middleware: RequestScopeMiddleware(container)))
        let app = Application(
            // Answers at the deadline even when a handler ignores its cancellation, and logs what
            // escapes a route at error level.
            router: router.guardingRequests(),
            // Closes each request's scope once its response is written, so a known-length
            // response goes out in one write, as on /bare/ping.
            server: .http1ClosingRequestScopes(),
            configuration: .init(address: .hostname("127.0.0.1", port: settings.port)),
            onServerRunning: { logger.info("listening on 127.0.0.1:\($0.localAddress?.port ?? 0)") },
            logger: logger
        )
        let services = ServiceGroup(
            configuration: .init(
                // SIGTERM: requests in flight finish, then everything is disposed, newest first.
                // A start that has not ended in 15 seconds fails the group, naming what was starting.
                services: [
                    .init(service: ContainerService(container, startTimeout: .seconds(15))), .init(service: app),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await services.run()
    }
}
