import Graft
import SQLiteNIO

/// A fixed set of SQLite connections, leased one at a time; created once, asynchronously, at
/// start-up, and closed when the container shuts down.
actor ConnectionPool: AsyncDisposable {
    private var idle: [SQLiteConnection]
    private var all: [SQLiteConnection]
    private var waiters: [CheckedContinuation<SQLiteConnection, Never>] = []

    /// Opens `size` connections to the file at `path`, creating it and the table if missing.
    static func open(settings: Settings) async throws -> ConnectionPool {
        // One connection: SQLite serialises writers anyway, and one writer never sees SQLITE_BUSY.
        let connection = try await SQLiteConnection.open(storage: .file(path: settings.databasePath))
        // A todo's list is checked when its transaction commits (a deferred constraint), so a todo
        // for a list that does not exist is inserted, and then its COMMIT fails.
        _ = try await connection.query("PRAGMA foreign_keys = ON")
        _ = try await connection.query("CREATE TABLE IF NOT EXISTS lists (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
        _ = try await connection.query("INSERT OR IGNORE INTO lists (id, name) VALUES (1, 'inbox')")
        _ = try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS todos (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL,
                list INTEGER NOT NULL DEFAULT 1 REFERENCES lists (id) DEFERRABLE INITIALLY DEFERRED)
            """
        )
        return ConnectionPool([connection])
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

    func dispose() async throws {
        for connection in all { try await connection.close() }
        all = []
        idle = []
    }
}
