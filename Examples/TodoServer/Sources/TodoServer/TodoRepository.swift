import Hummingbird
import SQLiteNIO

struct Todo: ResponseCodable {
    var id: Int
    var title: String
}

/// Reads and writes todos inside the request's unit of work.
struct TodoRepository: Sendable {
    let unitOfWork: UnitOfWork

    func all() async throws -> [Todo] {
        try await unitOfWork.connection.query("SELECT id, title FROM todos ORDER BY id").map { row in
            Todo(id: row.column("id")?.integer ?? 0, title: row.column("title")?.string ?? "")
        }
    }

    /// Inserts a todo into `list`; a list that does not exist fails the request's COMMIT.
    func add(title: String, list: Int = 1) async throws -> Todo {
        let rows = try await unitOfWork.connection.query(
            "INSERT INTO todos (title, list) VALUES (?, ?) RETURNING id",
            [.text(title), .integer(list)]
        )
        return Todo(id: rows.first?.column("id")?.integer ?? 0, title: title)
    }
}
