import Foundation

/// The server's configuration, read from the environment.
struct Settings: Sendable {
    /// `TODO_PORT`, 8080 unless set; 0 picks a free port.
    var port: Int
    /// `TODO_DATABASE`: the SQLite file, created when missing.
    var databasePath: String
    /// `TODO_METRICS`: `off` leaves the metrics observer out (a load test measures what it
    /// costs); on unless set.
    var metrics: Bool

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        port = environment["TODO_PORT"].flatMap(Int.init) ?? 8080
        databasePath = environment["TODO_DATABASE"] ?? "todos.sqlite"
        metrics = environment["TODO_METRICS"] != "off"
    }
}
