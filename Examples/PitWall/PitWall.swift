import Graft

// An async service wired into synchronous ones: the pit wall's telemetry database needs a
// connection pool that takes time to open. No half-initialised objects: the pool is created
// with `await`, once, and the synchronous services receive the finished instance.

/// Opening takes a while: it "connects" each connection in turn.
actor ConnectionPool: AsyncDisposable {
    let size: Int
    private var open = true

    init(settings: PoolSettings) async throws {
        for connection in 1...settings.size {
            try await Task.sleep(for: .milliseconds(10))
            print("  pool: connection \(connection) of \(settings.size) open")
        }
        self.size = settings.size
    }

    func query(_ sql: String) -> String {
        open ? "42 rows for \(sql)" : "closed"
    }

    func dispose() async throws {
        open = false
        print("  pool: drained and closed")
    }
}

struct PoolSettings: Sendable {
    let size: Int
}

/// A synchronous service: its initializer takes the finished pool.
final class TelemetryStore: Sendable {
    let pool: ConnectionPool

    init(pool: ConnectionPool) {
        self.pool = pool
    }

    func lapTimes() async -> String {
        await pool.query("SELECT * FROM laps")
    }
}

/// Per request: one report per pit-wall query.
final class LapReport: Sendable {
    let store: TelemetryStore

    init(store: TelemetryStore) {
        self.store = store
    }
}

/// In an async function Swift picks the `async` overloads of `build()`, `resolve` and
/// `shutdown()`; top-level code would pick the synchronous ones, so the program starts here.
@main
enum PitWall {
    static func main() async throws {
        var builder = ContainerBuilder()
        builder.register(PoolSettings.self, instance: PoolSettings(size: 3))
        builder.register(ConnectionPool.self, lifetime: .singleton, using: ConnectionPool.init(settings:))
        builder.register(TelemetryStore.self, lifetime: .singleton, using: TelemetryStore.init(pool:))
        builder.register(LapReport.self, lifetime: .scoped, using: LapReport.init(store:))
        let container = await builder.buildOrExit()  // or: its message on standard error, exit status 1

        // A synchronous resolve cannot open the pool; the error says so and what to do.
        do {
            _ = try resolveSynchronously(TelemetryStore.self, from: container)
        } catch {
            print(error)
        }

        print("Five requests arrive at once; the pool opens once:")
        try await withThrowingTaskGroup(of: String.self) { group in
            for request in 1...5 {
                group.addTask {
                    try await container.withScope { scope in
                        let report = try await scope.resolve(LapReport.self)
                        return "request \(request): \(await report.store.lapTimes())"
                    }
                }
            }
            for try await line in group {
                print("  \(line)")
            }
        }

        print("Shutting down:")
        try await container.shutdown()
    }

    /// The synchronous `resolve`, which async code does not pick on its own.
    static func resolveSynchronously<Service: Sendable>(
        _ type: Service.Type,
        from container: Container
    ) throws -> Service {
        try container.resolve(type)
    }
}
