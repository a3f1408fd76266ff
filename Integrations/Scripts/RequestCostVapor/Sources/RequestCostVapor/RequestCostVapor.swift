import Fluent
import FluentSQLiteDriver
import Foundation
import Graft
import GraftFluent
import GraftVapor
import Logging
import SQLKit
import Synchronization
import Vapor

/// One route, `/work`, doing three queries in one transaction on the request's database, in one
/// of two modes: `graft`, through Graft (installed with its request deadline, a request scope,
/// the request's `FluentTransaction` committed in the completion step), or `hand`, the same
/// queries in `req.db.transaction` and no Graft at all. `/stats` tells how many `/work` requests
/// the process served and its CPU time, for `request-cost.py`.
///
/// Environment: `COST_MODE` (`graft` or `hand`), `COST_PORT` (8080), `COST_DATABASE` (an SQLite
/// file, made anew), `COST_DEADLINE` (`off` for no request deadline; the default one otherwise).
@main
struct RequestCostVapor {
    static func main() async throws {
        let environment = ProcessInfo.processInfo.environment
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .error
            return handler
        }
        let app = try await Application.make(Environment(name: "production", arguments: ["request-cost-vapor"]))
        app.http.server.configuration.hostname = "127.0.0.1"
        app.http.server.configuration.port = environment["COST_PORT"].flatMap(Int.init) ?? 8080
        let path = environment["COST_DATABASE"] ?? "request-cost.sqlite"
        try? FileManager.default.removeItem(atPath: path)
        app.databases.use(.sqlite(.file(path)), as: .sqlite)
        try await Queries.prepare(app.db)

        let served = Served()
        if environment["COST_MODE"] == "hand" {
            app.get("work") { req async throws in
                let id = served.next()
                let answer = try await req.db.transaction { database in try await Queries.run(database, id) }
                served.count()
                return answer
            }
        } else {
            var builder = ContainerBuilder()
            builder.registerRequestValues()
            builder.registerFluent(app)
            let deadline = environment["COST_DEADLINE"] == "off" ? nil : GraftScopeMiddleware.defaultDeadline
            app.graft.install(try await builder.build(), requestDeadline: deadline)
            app.get("work") { req async throws in
                let transaction = try await req.resolve(FluentTransaction.self)
                let answer = try await Queries.run(transaction.database, served.next())
                served.count()
                return answer
            }
        }
        app.get("stats") { _ in served.stats() }
        try await app.execute()
        try await app.asyncShutdown()
    }
}

/// The work of both routes: three reads of a small table, in the caller's transaction.
enum Queries {
    static let rows = 100

    static func prepare(_ database: any Database) async throws {
        let sql = try sqlDatabase(database)
        try await sql.raw("CREATE TABLE counters (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, name TEXT NOT NULL)")
            .run()
        for id in 1...rows {
            try await sql.raw(
                "INSERT INTO counters (id, n, name) VALUES (\(bind: id), \(bind: id * 7 % 13), \(bind: "row \(id)"))"
            )
            .run()
        }
    }

    static func run(_ database: any Database, _ id: Int) async throws -> String {
        let sql = try sqlDatabase(database)
        let id = id % rows + 1
        let n = try await sql.raw("SELECT n FROM counters WHERE id = \(bind: id)").first(
            decodingColumn: "n",
            as: Int.self
        )
        let above = try await sql.raw("SELECT count(*) AS c FROM counters WHERE n > \(bind: n ?? 0)")
            .first(decodingColumn: "c", as: Int.self)
        let name = try await sql.raw("SELECT name FROM counters WHERE id = \(bind: id)")
            .first(decodingColumn: "name", as: String.self)
        return "\(name ?? "") \(above ?? 0)"
    }

    private static func sqlDatabase(_ database: any Database) throws -> any SQLDatabase {
        guard let sql = database as? any SQLDatabase else { throw Abort(.internalServerError, reason: "not SQL") }
        return sql
    }
}

/// How many measured requests were served, and the process's CPU time.
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
