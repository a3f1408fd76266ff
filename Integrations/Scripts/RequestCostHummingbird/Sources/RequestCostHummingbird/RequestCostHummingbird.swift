import Foundation
import Graft
import GraftHummingbird
import Hummingbird
import Logging
import SQLiteNIO
import Synchronization

/// One route, `/work`, doing three queries in one transaction on a connection leased from a
/// pool, in one of two modes: `graft`, through Graft as the TodoServer example is (a request
/// scope from `RequestScopeMiddleware` with its deadline, the request guard, the server that
/// closes scopes after writing; a scoped `UnitOfWork` that leases and begins, commits in the
/// completion step, gives the connection back when disposed), or `hand`, the same lease and
/// queries written out on Hummingbird's plain router and server. `/stats` tells how many `/work`
/// requests the process served and its CPU time, for `request-cost.py`.
///
/// Environment: `COST_MODE` (`graft` or `hand`), `COST_PORT` (8080), `COST_DATABASE` (an SQLite
/// file, made anew), `COST_DEADLINE` (`off` for no request deadline; the default one otherwise),
/// `COST_GUARD` (`off` for the router without `guardingRequests()`, to tell the guard's cost).
@main
struct RequestCostHummingbird {
    static func main() async throws {
        let environment = ProcessInfo.processInfo.environment
        var logger = Logger(label: "request-cost")
        logger.logLevel = .error
        let path = environment["COST_DATABASE"] ?? "request-cost.sqlite"
        try? FileManager.default.removeItem(atPath: path)
        let pool = try await ConnectionPool.open(path: path, size: 2)
        let address = BindAddress.hostname("127.0.0.1", port: environment["COST_PORT"].flatMap(Int.init) ?? 8080)
        let served = Served()

        if environment["COST_MODE"] == "hand" {
            let router = Router()
            router.get("work") { _, _ in
                let connection = await pool.lease()
                do {
                    _ = try await connection.query("BEGIN")
                    let answer = try await Queries.run(connection, served.next())
                    _ = try await connection.query("COMMIT")
                    await pool.release(connection)
                    served.count()
                    return answer
                } catch {
                    _ = try? await connection.query("ROLLBACK")
                    await pool.release(connection)
                    throw error
                }
            }
            router.get("stats") { _, _ in served.stats() }
            let app = Application(router: router, configuration: .init(address: address), logger: logger)
            try await app.runService()
        } else {
            var builder = ContainerBuilder()
            builder.register(ConnectionPool.self, instance: pool)
            builder.register(UnitOfWork.self, lifetime: .scoped) { r in try await UnitOfWork.begin(pool: r.resolve()) }
            builder.onComplete(UnitOfWork.self)
            let container = try await builder.build()
            let deadline =
                environment["COST_DEADLINE"] == "off"
                ? nil : RequestScopeMiddleware<BasicGraftRequestContext>.defaultDeadline
            let router = Router(context: BasicGraftRequestContext.self)
            router.get("stats") { _, _ in served.stats() }
            let scoped = router.group().add(middleware: RequestScopeMiddleware(container, deadline: deadline))
            scoped.get("work") { _, context in
                let unitOfWork = try await context.resolve(UnitOfWork.self)
                let answer = try await Queries.run(unitOfWork.connection, served.next())
                served.count()
                return answer
            }
            if environment["COST_GUARD"] == "off" {
                let app = Application(
                    router: router,
                    server: .http1ClosingRequestScopes(),
                    configuration: .init(address: address),
                    logger: logger
                )
                try await app.runService()
            } else {
                let app = Application(
                    router: router.guardingRequests(),
                    server: .http1ClosingRequestScopes(),
                    configuration: .init(address: address),
                    logger: logger
                )
                try await app.runService()
            }
            try await container.shutdown()
        }
        try await pool.close()
    }
}

/// A fixed set of SQLite connections, leased one at a time.
actor ConnectionPool {
    private var idle: [SQLiteConnection]
    private let all: [SQLiteConnection]
    private var waiters: [CheckedContinuation<SQLiteConnection, Never>] = []

    static func open(path: String, size: Int) async throws -> ConnectionPool {
        var connections: [SQLiteConnection] = []
        for _ in 0..<size { connections.append(try await SQLiteConnection.open(storage: .file(path: path))) }
        try await Queries.prepare(connections[0])
        return ConnectionPool(connections)
    }

    private init(_ connections: [SQLiteConnection]) {
        idle = connections
        all = connections
    }

    func lease() async -> SQLiteConnection {
        if let connection = idle.popLast() { return connection }
        return await withCheckedContinuation { waiters.append($0) }
    }

    func release(_ connection: SQLiteConnection) {
        if waiters.isEmpty {
            idle.append(connection)
        } else {
            waiters.removeFirst().resume(returning: connection)
        }
    }

    func close() async throws {
        for connection in all { try await connection.close() }
    }
}

/// A request's transaction on a leased connection: begun when first resolved, committed in the
/// completion step, rolled back when its scope closes without it; the connection goes back then.
final class UnitOfWork: Completable, AsyncDisposable {
    let connection: SQLiteConnection
    private let pool: ConnectionPool
    private let committed = Atomic(false)

    static func begin(pool: ConnectionPool) async throws -> UnitOfWork {
        let connection = await pool.lease()
        do {
            _ = try await connection.query("BEGIN")
        } catch {
            await pool.release(connection)
            throw error
        }
        return UnitOfWork(connection: connection, pool: pool)
    }

    private init(connection: SQLiteConnection, pool: ConnectionPool) {
        self.connection = connection
        self.pool = pool
    }

    func complete() async throws {
        _ = try await connection.query("COMMIT")
        committed.store(true, ordering: .releasing)
    }

    func dispose() async throws {
        if !committed.load(ordering: .acquiring) { _ = try? await connection.query("ROLLBACK") }
        await pool.release(connection)
    }
}

/// The work of both modes: three reads of a small table, in the caller's transaction.
enum Queries {
    static let rows = 100

    static func prepare(_ connection: SQLiteConnection) async throws {
        _ = try await connection.query(
            "CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, name TEXT NOT NULL)"
        )
        for id in 1...rows {
            _ = try await connection.query(
                "INSERT INTO counters (id, n, name) VALUES (?, ?, ?)",
                [.integer(id), .integer(id * 7 % 13), .text("row \(id)")]
            )
        }
    }

    static func run(_ connection: SQLiteConnection, _ id: Int) async throws -> String {
        let id = id % rows + 1
        let n = try await connection.query("SELECT n FROM counters WHERE id = ?", [.integer(id)]).first?.column("n")?
            .integer
        let above = try await connection.query("SELECT count(*) AS c FROM counters WHERE n > ?", [.integer(n ?? 0)])
            .first?.column("c")?.integer
        let name = try await connection.query("SELECT name FROM counters WHERE id = ?", [.integer(id)]).first?
            .column("name")?.string
        return "\(name ?? "") \(above ?? 0)"
    }
}

/// How many `/work` requests were served, and the process's CPU time.
final class Served: Sendable {
    private let served = Atomic(0)
    private let issued = Atomic(0)

    func next() -> Int { issued.add(1, ordering: .relaxed).newValue }
    func count() { served.add(1, ordering: .relaxed) }

    /// `served user_seconds system_seconds`, from `getrusage(RUSAGE_SELF)`.
    func stats() -> String {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return "\(served.load(ordering: .relaxed)) \(user) \(system)\n"
    }
}
